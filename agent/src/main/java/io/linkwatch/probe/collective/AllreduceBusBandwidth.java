package io.linkwatch.probe.collective;

import io.linkwatch.probe.result.CollectiveBusBandwidth;

/** Allreduce algorithm and bus bandwidth (busbw = algbw * 2(n-1)/n, as nccl-tests define it). */
public record AllreduceBusBandwidth(
    String devices, long sizeBytes, double algBytesPerSecond, double busBytesPerSecond)
    implements CollectiveBusBandwidth {}
