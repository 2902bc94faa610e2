package io.linkwatch.probe.p2p;

import java.util.ArrayList;
import java.util.List;

/**
 * An ordered pair of devices, shown {@code 0->1} (the p2p probe's target), read as {@code 0-1},
 * {@code 0:1} or {@code 0->1}.
 */
public record DevicePair(int src, int dst) {
  /** {@code 0-1}, {@code 0:1} or {@code 0->1}: two ids and what joins them. */
  private static final java.util.regex.Pattern WRITTEN =
      java.util.regex.Pattern.compile("\\s*(-?\\d+)\\s*(<->|->|-|:)\\s*(-?\\d+)\\s*");

  /**
   * The ways a pair may be written: {@code 0-1} and {@code 0:1} need no quoting in a shell ({@code
   * 0->1} is a redirection there, and has to be quoted).
   */
  public static final String FORMS = "0-1 or 0:1 (or '0->1', quoted)";

  /** An ordered pair: {@code 0-1}, {@code 0:1} or {@code 0->1}, from device 0 to device 1. */
  public static DevicePair parse(String text) {
    return parse(text, false);
  }

  /** A pair as written; {@code unordered} takes {@code 0<->1} too, and gives the lower id first. */
  public static DevicePair parse(String text, boolean unordered) {
    java.util.regex.Matcher m = WRITTEN.matcher(text);
    String forms = unordered ? "0-1 or 0:1 (or '0<->1', quoted)" : FORMS;
    if (!m.matches() || m.group(2).equals("<->") && !unordered) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a device pair (use e.g. " + forms + ")");
    }
    try {
      int a = Integer.parseInt(m.group(1));
      int b = Integer.parseInt(m.group(3));
      if (a < 0 || b < 0 || a == b) {
        throw new IllegalArgumentException(
            "'" + text + "' is not a device pair: ids must be different and not negative");
      }
      return unordered ? new DevicePair(Math.min(a, b), Math.max(a, b)) : new DevicePair(a, b);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a device pair (use e.g. " + forms + ")");
    }
  }

  /** Every ordered pair of distinct devices among {@code count}. */
  public static List<DevicePair> all(int count) {
    List<DevicePair> pairs = new ArrayList<>();
    for (int s = 0; s < count; s++) {
      for (int d = 0; d < count; d++) {
        if (s != d) {
          pairs.add(new DevicePair(s, d));
        }
      }
    }
    return pairs;
  }

  @Override
  public String toString() {
    return src + "->" + dst;
  }
}
