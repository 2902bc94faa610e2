package io.linkwatch.peer.collective;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.probe.result.CollectiveBusBandwidth;
import io.linkwatch.probe.result.CollectiveLatency;
import io.linkwatch.probe.result.Measurement;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two-host runs' series, e.g.
 *
 * <pre>
 * linkwatch_peer_allreduce_bus_bandwidth_bytes_per_second{dst_host="node-02:10187",size_bytes="67108864",src_host="node-01:10187"} 2.1E10
 * linkwatch_peer_allreduce_latency_seconds{dst_host="node-02:10187",size_bytes="1024",src_host="node-01:10187",quantile="0.5"} 4.2E-5
 * linkwatch_peer_allreduce_success{dst_host="node-02:10187",src_host="node-01:10187"} 1.0
 * linkwatch_peer_collective_runs_total{peer_host="node-02:10187",probe="peer_allreduce",result="success",role="prober"} 3.0
 * </pre>
 *
 * The figures are the prober's (the member whose name sorts first; it asked for the lease), so each
 * pair has one set of figures in the fleet, labelled by both ends.
 */
public final class PairMetrics {
  static final String RUNS = "linkwatch_peer_collective_runs";
  static final String SUCCESS = "linkwatch_peer_allreduce_success";
  static final String LATENCY = "linkwatch_peer_allreduce_latency_seconds";
  static final String BUS_BANDWIDTH = "linkwatch_peer_allreduce_bus_bandwidth_bytes_per_second";
  static final String LAST = "linkwatch_peer_allreduce_last_run_timestamp_seconds";

  private PairMetrics() {}

  /** The series of {@code results}, into {@code f}. */
  public static void write(PairResults results, MetricFamilies f) {
    Map<PairResults.Count, Long> snapshot = results.counts();
    f.counter(
        RUNS,
        "Two-host collective runs since the start, as the prober that asked for the lease or as"
            + " the responder that lent its devices, by how they ended (refused: this host refused"
            + " the lease; skipped_peer: the peer did).",
        snapshot,
        k ->
            new String[] {
              "probe",
              io.linkwatch.registry.ProbeKind.PEER_ALLREDUCE,
              "role",
              k.role(),
              "peer_host",
              k.peer(),
              "result",
              k.result()
            });
    MetricFamilies.Gauge ok =
        f.gauge(
            SUCCESS,
            "1 when the last run with the peer measured, 0 when it failed; skipped runs leave it.",
            null);
    MetricFamilies.Gauge last =
        f.gauge(LAST, "When the last run with the peer ended, whatever its result.", Unit.SECONDS);
    MetricFamilies.Summary latency =
        f.resultSummary(
            LATENCY,
            "Two-host allreduce round time: median, 99th percentile, how many rounds and their sum.",
            Unit.SECONDS);
    MetricFamilies.Gauge bus =
        f.result(
            BUS_BANDWIDTH,
            "Two-host allreduce bus bandwidth (algbw * 2(n-1)/n over all ranks of both hosts).",
            null);
    for (PairResults.Pair p : results.pairs()) {
      String[] ends = {"src_host", p.src(), "dst_host", p.dst()};
      last.add(p.at().toEpochMilli() / 1e3, ends);
      if (p.ok() != null) {
        ok.add(p.ok() ? 1 : 0, ends);
      }
      for (Measurement m : p.figures()) {
        if (m instanceof CollectiveLatency l) {
          latency.add(
              l.p50Seconds(),
              l.p99Seconds(),
              l.iterations(),
              l.sumSeconds(),
              labels(ends, "size_bytes", String.valueOf(l.sizeBytes())));
        } else if (m instanceof CollectiveBusBandwidth b) {
          bus.add(b.busBytesPerSecond(), labels(ends, "size_bytes", String.valueOf(b.sizeBytes())));
        }
      }
    }
  }

  private static String[] labels(String[] ends, String name, String value) {
    List<String> out = new ArrayList<>(List.of(ends));
    out.add(name);
    out.add(value);
    return out.toArray(String[]::new);
  }
}
