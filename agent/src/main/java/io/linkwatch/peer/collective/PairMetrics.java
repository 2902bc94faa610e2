package io.linkwatch.peer.collective;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.probe.result.CollectiveBusBandwidth;
import io.linkwatch.probe.result.CollectiveLatency;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.PeerP2pBandwidth;
import io.linkwatch.registry.ProbeKind;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The two-host runs' series, e.g.
 *
 * <pre>
 * linkwatch_peer_allreduce_bus_bandwidth_bytes_per_second{dst_host="node-02:10187",size_bytes="67108864",src_host="node-01:10187"} 2.1E10
 * linkwatch_peer_allreduce_latency_seconds{dst_host="node-02:10187",size_bytes="1024",src_host="node-01:10187",quantile="0.5"} 4.2E-5
 * linkwatch_peer_allreduce_success{dst_host="node-02:10187",src_host="node-01:10187"} 1.0
 * linkwatch_peer_p2p_bandwidth_bytes_per_second{dst_host="node-01:10187",size_bytes="67108864",src_host="node-02:10187"} 2.3E10
 * linkwatch_peer_p2p_bidirectional_bandwidth_bytes_per_second{dst_host="node-02:10187",size_bytes="67108864",src_host="node-01:10187"} 4.4E10
 * linkwatch_peer_collective_runs_total{peer_host="node-02:10187",probe="peer_allreduce",result="success",role="prober"} 3.0
 * </pre>
 *
 * The figures are the prober's (the member whose name sorts first; it asked for the lease), so each
 * pair has one set of figures in the fleet, labelled by both ends. The point to point's one-way
 * series are labelled by the direction the bytes went, so a pair has two; its both-ways series, as
 * the in-host {@code p2p_bidirectional}'s, has the prober as {@code src_host}.
 */
public final class PairMetrics {
  static final String RUNS = "linkwatch_peer_collective_runs";
  static final String LATENCY = "linkwatch_peer_allreduce_latency_seconds";
  static final String BUS_BANDWIDTH = "linkwatch_peer_allreduce_bus_bandwidth_bytes_per_second";
  static final String P2P_BANDWIDTH = "linkwatch_peer_p2p_bandwidth_bytes_per_second";
  static final String P2P_BIDIRECTIONAL =
      "linkwatch_peer_p2p_bidirectional_bandwidth_bytes_per_second";

  private PairMetrics() {}

  /** {@code linkwatch_peer_allreduce_success}, {@code linkwatch_peer_p2p_success}. */
  static String success(String probe) {
    return "linkwatch_" + probe + "_success";
  }

  /** {@code linkwatch_peer_allreduce_last_run_timestamp_seconds}, and the p2p's. */
  static String lastRun(String probe) {
    return "linkwatch_" + probe + "_last_run_timestamp_seconds";
  }

  /** The series of {@code results}, into {@code f}. */
  public static void write(PairResults results, MetricFamilies f) {
    Map<PairResults.Count, Long> snapshot = results.counts();
    f.counter(
        RUNS,
        "Two-host runs since the start, by probe, as the prober that asked for the lease or as"
            + " the responder that lent its devices, by how they ended (refused: this host refused"
            + " the lease; skipped_peer: the peer did).",
        snapshot,
        k ->
            new String[] {
              "probe", k.probe(), "role", k.role(), "peer_host", k.peer(), "result", k.result()
            });
    Map<String, MetricFamilies.Gauge> ok = new HashMap<>();
    Map<String, MetricFamilies.Gauge> last = new HashMap<>();
    for (String probe : ProbeKind.PEER_PROBES) {
      ok.put(
          probe,
          f.gauge(
              success(probe),
              "1 when the last "
                  + probe
                  + " run with the peer measured, 0 when it failed; skipped runs leave it.",
              null));
      last.put(
          probe,
          f.gauge(
              lastRun(probe),
              "When the last " + probe + " run with the peer ended, whatever its result.",
              Unit.SECONDS));
    }
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
    MetricFamilies.Gauge oneWay =
        f.result(
            P2P_BANDWIDTH,
            "Point to point from one device on src_host to one on dst_host: bytes over the median"
                + " time of a send that returns once they arrived.",
            null);
    MetricFamilies.Gauge bothWays =
        f.result(
            P2P_BIDIRECTIONAL,
            "Point to point between one device on each host, both directions at once: bytes"
                + " moved both ways over the median time.",
            null);
    for (PairResults.Pair p : results.pairs()) {
      String[] ends = {"src_host", p.src(), "dst_host", p.dst()};
      MetricFamilies.Gauge lastOf = last.get(p.probe());
      if (lastOf == null) {
        continue; // a probe this agent does not know has no families
      }
      lastOf.add(p.at().toEpochMilli() / 1e3, ends);
      if (p.ok() != null) {
        ok.get(p.probe()).add(p.ok() ? 1 : 0, ends);
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
        } else if (m instanceof PeerP2pBandwidth b) {
          String size = String.valueOf(b.sizeBytes());
          if (b.bothWays()) {
            bothWays.add(b.bytesPerSecond(), labels(ends, "size_bytes", size));
          } else {
            // Rank 0 is the prober's device (src), rank 1 the peer's.
            String from = b.fromRank() == 0 ? p.src() : p.dst();
            String to = b.fromRank() == 0 ? p.dst() : p.src();
            oneWay.add(
                b.bytesPerSecond(),
                labels(new String[] {"src_host", from, "dst_host", to}, "size_bytes", size));
          }
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
