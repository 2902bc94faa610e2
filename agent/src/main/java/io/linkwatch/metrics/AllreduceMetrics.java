package io.linkwatch.metrics;

import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * Series of the allreduce probe, e.g.
 *
 * <pre>
 * linkwatch_allreduce_latency_seconds{devices="0,1",size_bytes="1024",quantile="0.5"} 2.727E-4
 * linkwatch_allreduce_bus_bandwidth_bytes_per_second{devices="0,1",size_bytes="1073741824"} 1.051E11
 * </pre>
 */
public final class AllreduceMetrics {
  public static final String LATENCY = "linkwatch_allreduce_latency_seconds";
  public static final String BUS_BANDWIDTH = "linkwatch_allreduce_bus_bandwidth_bytes_per_second";

  public static final MetricWriter<AllreduceLatency> LATENCY_WRITER =
      (a, f) ->
          f.resultSummary(
                  LATENCY,
                  "Allreduce time over the iterations of a run (slowest rank per iteration).",
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

  public static final MetricWriter<AllreduceBusBandwidth> BUS_BANDWIDTH_WRITER =
      (b, f) ->
          f.result(
                  BUS_BANDWIDTH,
                  "Allreduce bus bandwidth, algbw*2(n-1)/n as nccl-tests define it.",
                  null)
              .add(
                  b.busBytesPerSecond(),
                  "devices",
                  b.devices(),
                  "size_bytes",
                  String.valueOf(b.sizeBytes()));

  private AllreduceMetrics() {}
}
