package io.linkwatch.probe.collective;

import io.linkwatch.metrics.families.MetricWriter;

/**
 * Series of the allgather probe (see {@link CollectiveMetrics}); {@code size_bytes} is the gathered
 * total.
 */
public final class AllgatherMetrics {
  public static final String LATENCY = "linkwatch_allgather_latency_seconds";
  public static final String BUS_BANDWIDTH = "linkwatch_allgather_bus_bandwidth_bytes_per_second";

  public static final MetricWriter<AllgatherLatency> LATENCY_WRITER =
      CollectiveMetrics.latency(
          LATENCY,
          "Allgather time over the iterations of a run (slowest rank per iteration);"
              + " size_bytes is the gathered total.");

  public static final MetricWriter<AllgatherBusBandwidth> BUS_BANDWIDTH_WRITER =
      CollectiveMetrics.busBandwidth(
          BUS_BANDWIDTH, "Allgather bus bandwidth, algbw*(n-1)/n as nccl-tests define it.");

  private AllgatherMetrics() {}
}
