package io.linkwatch.probe.collective;

import io.linkwatch.probe.result.CollectiveLatency;

/**
 * Allgather time over a run's iterations, slowest rank per iteration; {@code sizeBytes} is the
 * gathered total.
 */
public record AllgatherLatency(
    String devices,
    long sizeBytes,
    double p50Seconds,
    double p99Seconds,
    long iterations,
    double sumSeconds)
    implements CollectiveLatency {}
