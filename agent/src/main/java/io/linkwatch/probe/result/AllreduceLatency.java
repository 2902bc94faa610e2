package io.linkwatch.probe.result;

/**
 * Allreduce time over a run's iterations (the slowest rank per iteration): the median, the 99th
 * percentile, and the count and sum of the iteration times, exposed together as a summary.
 */
public record AllreduceLatency(
    String devices,
    long sizeBytes,
    double p50Seconds,
    double p99Seconds,
    long iterations,
    double sumSeconds)
    implements Measurement {
  /** E.g. {@code 0,1 1KiB p50 272.7us p99 281.0us}. */
  @Override
  public String summary() {
    return String.format(
        java.util.Locale.ROOT,
        "%s %s p50 %.1fus p99 %.1fus",
        devices,
        io.linkwatch.util.ByteSize.format(sizeBytes),
        p50Seconds * 1e6,
        p99Seconds * 1e6);
  }
}
