package io.linkwatch.probe.result;

import io.linkwatch.util.ByteSize;
import java.util.Locale;

/**
 * Allgather time over a run's iterations (the slowest rank per iteration) for a gathered total of
 * {@code sizeBytes}: the median, the 99th percentile, and the count and sum of the iteration times.
 */
public record AllgatherLatency(
    String devices,
    long sizeBytes,
    double p50Seconds,
    double p99Seconds,
    long iterations,
    double sumSeconds)
    implements Measurement {
  /** E.g. {@code 0,1 1KiB p50 270.4us p99 281.0us}. */
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%s %s p50 %.1fus p99 %.1fus",
        devices,
        ByteSize.format(sizeBytes),
        p50Seconds * 1e6,
        p99Seconds * 1e6);
  }
}
