package io.linkwatch.probe.collective;

import io.linkwatch.metrics.families.MetricWriter;

/** Series of the allreduce probe (see {@link CollectiveMetrics}). */
public final class AllreduceMetrics {
  public static final String LATENCY = "linkwatch_allreduce_latency_seconds";
  public static final String BUS_BANDWIDTH = "linkwatch_allreduce_bus_bandwidth_bytes_per_second";

  public static final MetricWriter<AllreduceLatency> LATENCY_WRITER =
      CollectiveMetrics.latency(
          LATENCY, "Allreduce time over the iterations of a run (slowest rank per iteration).");

  public static final MetricWriter<AllreduceBusBandwidth> BUS_BANDWIDTH_WRITER =
      CollectiveMetrics.busBandwidth(
          BUS_BANDWIDTH, "Allreduce bus bandwidth, algbw*2(n-1)/n as nccl-tests define it.");

  private AllreduceMetrics() {}
}
