package io.linkwatch.probe;

import java.util.ArrayList;
import java.util.List;

/** An ordered pair of devices, written {@code 0->1}; the p2p probe's target. */
public record DevicePair(int src, int dst) {
  public static DevicePair parse(String text) {
    String[] parts = text.strip().split("->");
    if (parts.length != 2) {
      throw new IllegalArgumentException("'" + text + "' is not a device pair (use e.g. 0->1)");
    }
    try {
      DevicePair p =
          new DevicePair(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
      if (p.src < 0 || p.dst < 0 || p.src == p.dst) {
        throw new IllegalArgumentException(
            "'" + text + "' is not a device pair: ids must be different and not negative");
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a device pair (use e.g. 0->1)");
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
