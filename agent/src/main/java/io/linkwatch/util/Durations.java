package io.linkwatch.util;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations written the Prometheus way: {@code 500ms}, {@code 30s}, {@code 5m}, {@code
 * 1h30m}.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private Durations() {}

  public static Duration parse(String text) {
    String t = text == null ? "" : text.strip();
    Matcher m = PART.matcher(t);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
              });
      end = m.end();
    }
    if (t.isEmpty() || end != t.length()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (use e.g. 500ms, 30s, 5m, 1h)");
    }
    if (total.isZero()) {
      throw new IllegalArgumentException("'" + text + "' is not a duration: it must be above 0");
    }
    return total;
  }

  /** Prints the shortest form that {@link #parse} reads back, e.g. {@code 5m}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /** Seconds since {@code startedNanos}, a {@link System#nanoTime()} reading: a run's wall time. */
  public static double secondsSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }
}
