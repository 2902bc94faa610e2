package io.linkwatch.probe.collective;

import io.linkwatch.probe.result.CollectiveLatency;
import io.linkwatch.probe.result.Judged;

/**
 * Allreduce time over a run's iterations, slowest rank per iteration; judged against the expected
 * rows (allgather's is not: its size is the gathered total, and no row is known for it).
 */
public record AllreduceLatency(
    String devices,
    long sizeBytes,
    double p50Seconds,
    double p99Seconds,
    long iterations,
    double sumSeconds)
    implements CollectiveLatency, Judged.Latency {
  @Override
  public Judged.Figure judged() {
    return CollectiveLatency.super.judged();
  }
}
