package io.linkwatch.metrics;

import io.linkwatch.probe.result.AllgatherBusBandwidth;
import io.linkwatch.probe.result.AllgatherLatency;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * Series of the allgather probe, {@code size_bytes} the gathered total, e.g.
 *
 * <pre>
 * linkwatch_allgather_latency_seconds{devices="0,1",size_bytes="1024",quantile="0.5"} 2.705E-4
 * linkwatch_allgather_bus_bandwidth_bytes_per_second{devices="0,1",size_bytes="268435456"} 1.402E11
 * </pre>
 */
public final class AllgatherMetrics {
  public static final String LATENCY = "linkwatch_allgather_latency_seconds";
  public static final String BUS_BANDWIDTH = "linkwatch_allgather_bus_bandwidth_bytes_per_second";

  public static final MetricWriter<AllgatherLatency> LATENCY_WRITER =
      (a, f) ->
          f.resultSummary(
                  LATENCY,
                  "Allgather time over the iterations of a run (slowest rank per iteration);"
                      + " size_bytes is the gathered total.",
                  Unit.SECONDS)
              .add(
                  a.p50Seconds(),
                  a.p99Seconds(),
                  a.iterations(),
                  a.sumSeconds(),
                  "devices",
                  a.devices(),
                  "size_bytes",
                  String.valueOf(a.sizeBytes()));

  public static final MetricWriter<AllgatherBusBandwidth> BUS_BANDWIDTH_WRITER =
      (b, f) ->
          f.result(
                  BUS_BANDWIDTH,
                  "Allgather bus bandwidth, algbw*(n-1)/n as nccl-tests define it.",
                  null)
              .add(
                  b.busBytesPerSecond(),
                  "devices",
                  b.devices(),
                  "size_bytes",
                  String.valueOf(b.sizeBytes()));

  private AllgatherMetrics() {}
}
