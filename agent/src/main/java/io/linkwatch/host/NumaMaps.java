package io.linkwatch.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Parses {@code /proc/<pid>/numa_maps}, one {@link NumaMapsEntry} per line:
 *
 * <pre>
 * 7f3a40000000 default anon=4096 dirty=4096 N5=4096 kernelpagesize_kB=4
 * 7f3a50000000 prefer (many)=static:0-1 file=/data/my\040model.bin mapped=12 N0=8 N1=4 ...
 * </pre>
 *
 * Tokens after the policy are read by prefix, not position, so fields a newer kernel adds are
 * skipped. The policy is the one part that is not one token: {@code prefer (many)} and {@code
 * weighted interleave} contain a space.
 */
public final class NumaMaps {
  // Policy modes whose name is two tokens (kernel policy_modes[]).
  private static final List<String> TWO_WORD_MODES =
      List.of("prefer (many)", "weighted interleave");

  private NumaMaps() {}

  /**
   * @throws IllegalArgumentException for a line that does not start with an address and a policy
   */
  public static List<NumaMapsEntry> parse(String text) {
    List<NumaMapsEntry> entries = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank()) {
        entries.add(parseLine(line));
      }
    }
    return List.copyOf(entries);
  }

  static NumaMapsEntry parseLine(String line) {
    String[] tokens = line.strip().split(" +");
    if (tokens.length < 2) {
      throw new IllegalArgumentException("not a numa_maps line: '" + line + "'");
    }
    long start;
    try {
      start = Long.parseUnsignedLong(tokens[0], 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a numa_maps line: '" + line + "'", e);
    }
    int next = 2;
    String policy = tokens[1];
    if (tokens.length > 2 && TWO_WORD_MODES.stream().anyMatch(m -> startsMode(tokens, m))) {
      policy = tokens[1] + " " + tokens[2];
      next = 3;
    }
    Optional<String> file = Optional.empty();
    boolean heap = false;
    boolean stack = false;
    boolean huge = false;
    long anon = 0;
    long dirty = 0;
    long mapped = 0;
    long pageSizeKb = 0;
    Map<Integer, Long> pages = new TreeMap<>();
    for (int i = next; i < tokens.length; i++) {
      String token = tokens[i];
      if (token.startsWith("file=")) {
        file = Optional.of(unescape(token.substring(5)));
      } else if (token.equals("heap")) {
        heap = true;
      } else if (token.startsWith("stack")) { // "stack", or "stack:<tid>" on old kernels
        stack = true;
      } else if (token.equals("huge")) {
        huge = true;
      } else if (token.startsWith("anon=")) {
        anon = count(token, line);
      } else if (token.startsWith("dirty=")) {
        dirty = count(token, line);
      } else if (token.startsWith("mapped=")) {
        mapped = count(token, line);
      } else if (token.startsWith("kernelpagesize_kB=")) {
        pageSizeKb = count(token, line);
      } else if (isNodeCount(token)) {
        int equals = token.indexOf('=');
        pages.put(Integer.parseInt(token.substring(1, equals)), count(token, line));
      }
    }
    return new NumaMapsEntry(
        start, policy, file, heap, stack, huge, anon, dirty, mapped, pages, pageSizeKb);
  }

  // The two-word mode, possibly followed by "=flags" or ":nodes" glued to its second word.
  private static boolean startsMode(String[] tokens, String mode) {
    String joined = tokens[1] + " " + tokens[2];
    return joined.equals(mode) || joined.startsWith(mode + "=") || joined.startsWith(mode + ":");
  }

  private static boolean isNodeCount(String token) {
    int equals = token.indexOf('=');
    if (token.length() < 4 || token.charAt(0) != 'N' || equals < 2) {
      return false;
    }
    for (int i = 1; i < equals; i++) {
      if (!Character.isDigit(token.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static long count(String token, String line) {
    try {
      return Long.parseLong(token.substring(token.indexOf('=') + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad count '" + token + "' in numa_maps line: " + line, e);
    }
  }

  /**
   * Undoes the kernel's octal escapes in paths ({@code \040} is a space, {@code \012} a newline).
   */
  static String unescape(String path) {
    StringBuilder out = new StringBuilder(path.length());
    int i = 0;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '\\' && isOctal(path, i + 1)) {
        out.append((char) Integer.parseInt(path.substring(i + 1, i + 4), 8));
        i += 4;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int k = from; k < from + 3; k++) {
      char c = s.charAt(k);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return true;
  }
}
