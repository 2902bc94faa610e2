package io.linkwatch.http;

import io.linkwatch.util.Gbps;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The status page's figures, sizes and ages as text. The page writes a space before every unit
 * ({@code 64 MiB}, {@code 3 min}, {@code 12.5 µs}), rounds ages down to a unit a person reads at a
 * glance, and prints sizes in IEC units up to GiB only: {@link io.linkwatch.util.ByteSize#format}
 * ({@code 64MiB}, or {@code 64MB} where that is shorter, up to TiB) and {@link
 * io.linkwatch.util.Durations#format} ({@code 5m}, exact, for config files) write forms to parse
 * back, not the page's, so the page keeps these.
 */
final class StatusFormat {
  private StatusFormat() {}

  /** Bytes per second in GB/s, as every table writes them ({@link Gbps}). */
  static String gbps(double bytesPerSecond) {
    return Gbps.format(bytesPerSecond);
  }

  static String micros(double seconds) {
    return Double.isNaN(seconds) ? "" : String.format(Locale.ROOT, "%.1f µs", seconds * 1e6);
  }

  /** {@code 64 MiB}: the largest IEC unit up to GiB that holds the size exactly. */
  static String size(long bytes) {
    if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
      return bytes / (1L << 30) + " GiB";
    }
    if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
      return bytes / (1L << 20) + " MiB";
    }
    if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
      return bytes / (1L << 10) + " KiB";
    }
    return bytes + " B";
  }

  static String string(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  /** {@code 12 s ago}, {@code 3 min ago}, or empty. */
  static String ago(Instant at, Instant now) {
    return at == null ? "" : span(Duration.between(at, now)) + " ago";
  }

  /** {@code in 12 s}, {@code due}, or empty. */
  static String until(Instant at, Instant now) {
    if (at == null) {
      return "";
    }
    Duration d = Duration.between(now, at);
    return d.isNegative() ? "due" : "in " + span(d);
  }

  private static String span(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s < 120) {
      return s + " s";
    }
    if (s < 7200) {
      return s / 60 + " min";
    }
    return s < 172800 ? s / 3600 + " h" : s / 86400 + " d";
  }
}
