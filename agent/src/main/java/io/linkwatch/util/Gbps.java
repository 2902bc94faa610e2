package io.linkwatch.util;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Bytes per second as a person reads them, in GB/s (10^9 bytes per second, as {@code /metrics}
 * divides): one decimal from 1 GB/s ({@code 105.1}), two significant digits below it ({@code 0.012}
 * for a 1KiB collective's 12 MB/s), so a real figure never prints as {@code 0.0}; zero is {@code
 * 0}. The one formatter of every table, log line and status page figure in GB/s; the status page's
 * script ({@code status.js}, {@code gbps}) writes its tooltips by the same rule.
 */
public final class Gbps {
  private Gbps() {}

  /** The number alone, e.g. {@code 105.1}, {@code 0.012}, {@code 0}. */
  public static String format(double bytesPerSecond) {
    double gbps = bytesPerSecond / 1e9;
    if (Double.isNaN(gbps) || Double.isInfinite(gbps)) {
      return String.valueOf(gbps);
    }
    if (gbps == 0) {
      return "0";
    }
    BigDecimal small = new BigDecimal(gbps).round(new MathContext(2, RoundingMode.HALF_UP));
    if (small.abs().compareTo(BigDecimal.ONE) >= 0) {
      return String.format(Locale.ROOT, "%.1f", gbps);
    }
    return small.toPlainString();
  }

  /** With its unit, e.g. {@code 105.1 GB/s}. */
  public static String withUnit(double bytesPerSecond) {
    return format(bytesPerSecond) + " GB/s";
  }
}
