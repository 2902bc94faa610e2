package io.linkwatch.probe.result;

/** Allreduce time over a run's iterations (the slowest rank per iteration). */
public record AllreduceLatency(String devices, long sizeBytes, double p50Seconds, double p99Seconds)
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
