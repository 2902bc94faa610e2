package io.linkwatch.probe.collective;

import io.linkwatch.probe.result.CollectiveBusBandwidth;

/**
 * Allgather algorithm bandwidth (gathered total / time) and bus bandwidth (busbw = algbw * (n-1)/n,
 * as nccl-tests define it).
 */
public record AllgatherBusBandwidth(
    String devices, long sizeBytes, double algBytesPerSecond, double busBytesPerSecond)
    implements CollectiveBusBandwidth {}
