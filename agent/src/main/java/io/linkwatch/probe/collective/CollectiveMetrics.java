package io.linkwatch.probe.collective;

import io.linkwatch.metrics.families.MetricWriter;
import io.linkwatch.probe.result.CollectiveBusBandwidth;
import io.linkwatch.probe.result.CollectiveLatency;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The series every collective probe has, under its own names: a latency summary and a bus bandwidth
 * gauge, both labelled {@code devices} and {@code size_bytes}, e.g.
 *
 * <pre>
 * linkwatch_allreduce_latency_seconds{devices="0,1",size_bytes="1024",quantile="0.5"} 2.727E-4
 * linkwatch_allreduce_bus_bandwidth_bytes_per_second{devices="0,1",size_bytes="1073741824"} 1.051E11
 * </pre>
 */
final class CollectiveMetrics {
  private CollectiveMetrics() {}

  static <M extends CollectiveLatency> MetricWriter<M> latency(String name, String help) {
    return (a, f) ->
        f.resultSummary(name, help, Unit.SECONDS)
            .add(
                a.p50Seconds(),
                a.p99Seconds(),
                a.iterations(),
                a.sumSeconds(),
                "devices",
                a.devices(),
                "size_bytes",
                String.valueOf(a.sizeBytes()));
  }

  static <M extends CollectiveBusBandwidth> MetricWriter<M> busBandwidth(String name, String help) {
    return (b, f) ->
        f.result(name, help, null)
            .add(
                b.busBytesPerSecond(),
                "devices",
                b.devices(),
                "size_bytes",
                String.valueOf(b.sizeBytes()));
  }
}
