package io.linkwatch.probe.collective;

/** Allreduce time over a run's iterations, slowest rank per iteration. */
public record AllreduceLatency(
    String devices,
    long sizeBytes,
    double p50Seconds,
    double p99Seconds,
    long iterations,
    double sumSeconds)
    implements CollectiveLatency {}
