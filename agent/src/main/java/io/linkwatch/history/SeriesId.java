package io.linkwatch.history;

import io.linkwatch.probe.result.Charted;

/**
 * What one charted series is: a figure of a probe target at one size, e.g. {@code p2p 0->1
 * bandwidth 268435456} (the {@link #id()} the status page and {@code /api/v1/history} name it by).
 *
 * @param figure what of the target's result is charted: {@code bandwidth}, {@code pinned_h2d},
 *     {@code latency_p50}, {@code bus_bandwidth}, ...
 * @param unit {@code bytes_per_second} or {@code seconds}, as the metrics' base units
 */
public record SeriesId(String probe, String target, String figure, long sizeBytes, String unit) {
  public static final String BYTES_PER_SECOND = Charted.BYTES_PER_SECOND;
  public static final String SECONDS = Charted.SECONDS;

  /** The name of the series of {@code figure} of {@code probe}'s {@code target} at {@code size}. */
  public static String id(String probe, String target, String figure, long sizeBytes) {
    return probe + " " + target + " " + figure + " " + sizeBytes;
  }

  public String id() {
    return id(probe, target, figure, sizeBytes);
  }
}
