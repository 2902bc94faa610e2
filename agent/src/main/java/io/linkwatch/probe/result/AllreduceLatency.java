package io.linkwatch.probe.result;

/** Allreduce time over a run's iterations (the slowest rank per iteration). */
public record AllreduceLatency(String devices, long sizeBytes, double p50Seconds, double p99Seconds)
    implements Measurement {
  @Override
  public String summary() {
    return toString();
  }
}
