package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.peer.PathResult;
import io.linkwatch.peer.PathVerdict;
import io.linkwatch.peer.PeerFindings.Suspect;
import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.peer.PeerSnapshot;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The probes between servers, e.g.
 *
 * <pre>
 * linkwatch_peer_path_loss_ratio{dst_host="node-02:10187",dst_nic="eth0",src_host="node-01:10187",src_nic="eth0"} 0.0
 * linkwatch_peer_path_rtt_seconds{dst_host="node-02:10187",...,quantile="0.99"} 1.9E-4
 * linkwatch_peer_path_rtt_seconds_count{dst_host="node-02:10187",...} 20
 * linkwatch_peer_paths{src_nic="eth0",verdict="unreachable"} 1.0
 * linkwatch_peer_suspect{kind="peer",suspect_host="node-05:10187",suspect_nic="",verdict="unreachable"} 1.0
 * linkwatch_peer_path_ok{dst_host="node-02:10187",dst_nic="npu3",src_host="node-01:10187",src_nic="npu3"} 0.0
 * </pre>
 *
 * Per-path series exist only for the paths in the current plan: probed in the last two rounds,
 * under the same switch, or failed within the cover period; a healthy path met once a cover drops
 * out after its round and counts in the roll-ups ({@code linkwatch_peer_paths}) until the cover
 * ends. So a host's series grow with its switch's members and its failures, not with the fleet.
 */
public final class PeerCollector implements MultiCollector {
  static final String MEMBERS = "linkwatch_peer_members";
  static final String SELF = "linkwatch_peer_self";
  static final String ROUND = "linkwatch_peer_round_seconds";
  static final String COVER = "linkwatch_peer_cover_seconds";
  static final String BUDGET = "linkwatch_peer_budget_probes_per_hour";
  static final String LAST_HOUR = "linkwatch_peer_probes_last_hour";
  static final String PROBES = "linkwatch_peer_probes";
  static final String LOSS = "linkwatch_peer_path_loss_ratio";
  static final String RTT = "linkwatch_peer_path_rtt_seconds";
  static final String OK = "linkwatch_peer_path_ok";
  static final String TCP = "linkwatch_peer_path_tcp_connect_seconds";
  static final String LAST = "linkwatch_peer_path_last_probe_timestamp_seconds";
  static final String PATHS = "linkwatch_peer_paths";
  static final String SUSPECT = "linkwatch_peer_suspect";
  static final String MEMBERSHIP_FAILURES = "linkwatch_peer_membership_failures";
  static final String REFUSED = "linkwatch_peer_echoes_refused";
  static final String NPU_PINGS = "linkwatch_peer_npu_pings";

  private final Supplier<PeerSnapshot> peers;

  public PeerCollector(Supplier<PeerSnapshot> peers) {
    this.peers = peers;
  }

  @Override
  public MetricSnapshots collect() {
    PeerSnapshot s = peers.get();
    MetricFamilies f = new MetricFamilies();
    if (s != null) {
      write(s, f);
    }
    return new MetricSnapshots(f.snapshots());
  }

  static void write(PeerSnapshot s, MetricFamilies f) {
    f.gauge(MEMBERS, "Members this agent knows of, from its membership source.", null)
        .add(s.members().size(), "source", s.source());
    f.counter(
        MEMBERSHIP_FAILURES,
        "Reads of the membership source that failed; the last list read is kept meanwhile.",
        Map.of(s.source(), s.membershipFailures()),
        src -> new String[] {"source", src});
    f.counter(
        REFUSED,
        "Echoes the responder did not answer: over its rate limit (1000 a second from one"
            + " address, 20000 in all), far above what peers send.",
        Map.of("", s.echoesRefused()),
        k -> new String[0]);
    if (s.self() != null) {
      f.info(
          SELF,
          "This host as the member list names it, with its switch and rail where known.",
          labels("host", s.self().host(), "tor", s.self().tor(), "rail", s.self().rail()));
    }
    if (s.round() != null) {
      f.gauge(ROUND, "How long a round of probes between servers lasts.", Unit.SECONDS)
          .add(s.round().toMillis() / 1e3);
      f.gauge(COVER, "How long it takes until every pair of members has met once.", Unit.SECONDS)
          .add(s.cover().toMillis() / 1e3);
    }
    f.gauge(BUDGET, "Probes this host may take part in an hour, sent or answered.", null)
        .add(s.budgetPerHour());
    f.gauge(LAST_HOUR, "Probes this host took part in over the last hour, sent or answered.", null)
        .add(s.lastHour());
    f.counter(
        PROBES,
        "Probes between servers since the start: sent as the schedule says, answered for peers,"
            + " sent as second passes after a failure, and second passes skipped for the budget.",
        s.probes(),
        k -> new String[] {"kind", k});
    if (!s.npu().ports().isEmpty() || s.npu().error() != null) {
      f.counter(
          NPU_PINGS,
          "Pings from this host's NPU ports (hccn_tool -ping) since the start: sent to the partners"
              + " of a round, rechecks of failed paths, second passes, rounds left out while the"
              + " last one's pings still ran (skipped_busy), and pings the tool could not make"
              + " (failed).",
          s.npu().pings(),
          k -> new String[] {"kind", k});
    }
    if (s.self() == null) {
      return;
    }
    String src = s.self().host();
    // The NPU ports' paths are paths too, their src_nic and dst_nic the ports (npu0 ...).
    List<PathResult> shown = new ArrayList<>(s.shown());
    shown.addAll(s.npu().shown());
    List<PathResult> window = new ArrayList<>(s.window());
    window.addAll(s.npu().window());
    MetricFamilies.Gauge loss =
        f.gauge(LOSS, "Share of the last probe's echoes that did not come back.", Unit.RATIO);
    MetricFamilies.Gauge ok =
        f.gauge(OK, "1 when the last probe of the path passed, 0 when it did not.", null);
    MetricFamilies.Summary rtt =
        f.resultSummary(
            RTT,
            "Round trip of the last probe's echoes that came back: median, 99th percentile, how"
                + " many and their sum.",
            Unit.SECONDS);
    MetricFamilies.Gauge tcp =
        f.gauge(
            TCP, "How long the last probe's TCP connect to the peer's agent took.", Unit.SECONDS);
    MetricFamilies.Gauge last = f.gauge(LAST, "When the path was last probed.", Unit.SECONDS);
    for (PathResult r : shown) {
      Member peer = s.member(r.peer());
      String[] l =
          labels(
              "src_host", src,
              "src_nic", r.srcNic(),
              "dst_host", r.peer(),
              "dst_nic", r.dstNic(),
              "tor", peer == null ? null : peer.tor());
      loss.add(r.lossRatio(), l);
      ok.add(r.ok() ? 1 : 0, l);
      if (!Double.isNaN(r.rttP50())) {
        rtt.add(r.rttP50(), r.rttP99(), r.received(), r.rttSum(), l);
      }
      if (!Double.isNaN(r.tcpSeconds())) {
        tcp.add(r.tcpSeconds(), l);
      }
      last.add(r.at().toEpochMilli() / 1e3, l);
    }
    // Every verdict on every NIC, zeros included: a rule divides lossy by all without gaps.
    Map<String, Map<PathVerdict, Integer>> byNic = new TreeMap<>();
    for (PathResult r : window) {
      byNic
          .computeIfAbsent(
              r.srcNic() == null ? "" : r.srcNic(), n -> new EnumMap<>(PathVerdict.class))
          .merge(r.verdict(), 1, Integer::sum);
    }
    MetricFamilies.Gauge paths =
        f.gauge(
            PATHS,
            "Peers by the verdict of their latest probe within the cover period, per interface of"
                + " this host.",
            null);
    byNic.forEach(
        (nic, counts) -> {
          for (PathVerdict v : PathVerdict.values()) {
            paths.add(counts.getOrDefault(v, 0), "src_nic", nic, "verdict", v.id());
          }
        });
    MetricFamilies.Gauge suspect =
        f.gauge(
            SUSPECT,
            "1 for each member this host's probes blame: itself (kind=self) when most of its peers"
                + " failed, else each switch every path through which failed (kind=tor, its name"
                + " as suspect_host) and each other peer that failed while others answered"
                + " (kind=peer).",
            null);
    // One series per label set: two judgements that name the same suspect alike (the host's
    // echoes and a port's pings, say) would otherwise fail the whole scrape.
    java.util.Set<List<String>> written = new java.util.HashSet<>();
    for (Suspect x : s.suspects()) {
      String[] l = {
        "kind",
        x.kind().id(),
        "suspect_host",
        x.host(),
        "suspect_nic",
        x.nic() == null ? "" : x.nic(),
        "verdict",
        x.verdict().id()
      };
      if (written.add(List.of(l))) {
        suspect.add(1, l);
      }
    }
  }

  /** Name, value pairs with the pairs whose value is null left out. */
  private static String[] labels(String... pairs) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1] != null) {
        out.add(pairs[i]);
        out.add(pairs[i + 1]);
      }
    }
    return out.toArray(String[]::new);
  }
}
