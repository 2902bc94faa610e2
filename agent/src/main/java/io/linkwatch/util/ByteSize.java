package io.linkwatch.util;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints byte counts: {@code 256MiB}, {@code 1GiB}, {@code 4096}, {@code 1GB}. The IEC
 * units (KiB, MiB, GiB, TiB) are powers of two; KB, MB, GB and TB are powers of ten, as on disk
 * labels; a bare number or {@code B} is bytes.
 */
public final class ByteSize {
  private static final Pattern FORM =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?");

  private ByteSize() {}

  /**
   * @throws IllegalArgumentException with a message that says what is wrong and what is accepted
   */
  public static long parse(String text) {
    String t = text == null ? "" : text.strip();
    Matcher m = FORM.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)");
    }
    BigDecimal value = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit(m.group(2))));
    if (value.signum() <= 0) {
      throw new IllegalArgumentException("'" + text + "' is not a size: it must be above 0");
    }
    try {
      return value.setScale(0, java.math.RoundingMode.UNNECESSARY).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes");
    }
  }

  private static long unit(String unit) {
    if (unit == null) {
      return 1;
    }
    return switch (unit) {
      case "B" -> 1L;
      case "KiB" -> 1L << 10;
      case "MiB" -> 1L << 20;
      case "GiB" -> 1L << 30;
      case "TiB" -> 1L << 40;
      case "KB" -> 1_000L;
      case "MB" -> 1_000_000L;
      case "GB" -> 1_000_000_000L;
      case "TB" -> 1_000_000_000_000L;
      default -> throw new IllegalStateException(unit);
    };
  }

  /**
   * The shortest exact form, IEC unless a decimal unit is shorter: {@code 268435456} prints as
   * {@code 256MiB}, {@code 64000000} (what {@code 64MB} reads as) as {@code 64MB}, not {@code
   * 62500KiB}. Either form parses back to the same count.
   */
  public static String format(long bytes) {
    String iec = exact(bytes, 1024, new String[] {"B", "KiB", "MiB", "GiB", "TiB"});
    String si = exact(bytes, 1000, new String[] {"B", "KB", "MB", "GB", "TB"});
    return si.length() < iec.length() ? si : iec;
  }

  private static String exact(long bytes, long base, String[] units) {
    int i = 0;
    long v = bytes;
    while (i < units.length - 1 && v >= base && v % base == 0) {
      v /= base;
      i++;
    }
    return String.format(Locale.ROOT, "%d%s", v, units[i]);
  }

  /**
   * For reading, not for parsing back: at most one decimal in the largest IEC unit that keeps the
   * number at 1 or more ({@code 150754820096} as {@code 140.4GiB}; exact values as {@link #format}:
   * {@code 64GiB}).
   */
  public static String human(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double v = bytes;
    while (i < units.length - 1 && v >= 1024) {
      v /= 1024;
      i++;
    }
    String exact = format(bytes);
    // An exact form of up to four digits reads well (64GiB, 1536MiB); 143771MiB does not.
    return exact.chars().takeWhile(Character::isDigit).count() <= 4
        ? exact
        : String.format(Locale.ROOT, "%.1f%s", v, units[i]);
  }
}
