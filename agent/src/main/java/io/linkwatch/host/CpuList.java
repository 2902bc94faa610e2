package io.linkwatch.host;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The kernel's list format for CPUs and nodes ({@code cpulist}, {@code online}, {@code has_memory},
 * the node list of a memory policy): {@code parse("0-23,96-119")} gives 0..23 and 96..119, and
 * {@link #format} turns {@code [0, 1, 2, 3, 8]} back into {@code "0-3,8"}.
 */
public final class CpuList {
  private CpuList() {}

  /**
   * The ascending, distinct numbers of a list such as {@code "0-3,8,10-11"}. Blank text (a node
   * without CPUs has an empty {@code cpulist}) is an empty list. Also accepts the stride form
   * {@code "0-15:2/4"} the kernel takes in boot parameters.
   *
   * @throws IllegalArgumentException for text that is not a list
   */
  public static List<Integer> parse(String text) {
    String trimmed = text.strip();
    TreeSet<Integer> ids = new TreeSet<>();
    if (trimmed.isEmpty()) {
      return List.of();
    }
    for (String part : trimmed.split(",")) {
      try {
        addRange(part.strip(), ids);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a CPU list: '" + trimmed + "'", e);
      }
    }
    return List.copyOf(ids);
  }

  private static void addRange(String part, TreeSet<Integer> ids) {
    int colon = part.indexOf(':');
    String range = colon < 0 ? part : part.substring(0, colon);
    int used = 1;
    int group = 1;
    if (colon >= 0) {
      String[] stride = part.substring(colon + 1).split("/");
      if (stride.length != 2) {
        throw new NumberFormatException(part);
      }
      used = Integer.parseInt(stride[0]);
      group = Integer.parseInt(stride[1]);
    }
    int dash = range.indexOf('-');
    int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
    int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
    if (first < 0 || last < first || used < 1 || group < used) {
      throw new NumberFormatException(part);
    }
    for (int id = first; id <= last; id += group) {
      for (int k = 0; k < used && id + k <= last; k++) {
        ids.add(id + k);
      }
    }
  }

  /** The shortest list text for the numbers: ascending ranges, e.g. {@code "0-3,8"}. */
  public static String format(List<Integer> ids) {
    List<Integer> sorted = new ArrayList<>(new TreeSet<>(ids));
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(sorted.get(i));
      if (j > i) {
        out.append('-').append(sorted.get(j));
      }
      i = j + 1;
    }
    return out.toString();
  }
}
