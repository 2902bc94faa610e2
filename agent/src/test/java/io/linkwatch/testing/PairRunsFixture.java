package io.linkwatch.testing;

import io.linkwatch.peer.collective.PairResults;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.probe.result.PeerP2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Two-host runs of node-01 as the golden exposition shows them: it measured its pair with node-02
 * (both probes), node-03 refused it a lease, it lent its devices to node-00 once and refused
 * node-04 once.
 */
public final class PairRunsFixture {
  private PairRunsFixture() {}

  public static PairResults results() {
    PairResults r =
        new PairResults(Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
    r.probed(
        "peer_allreduce",
        "node-01:10187",
        "node-02:10187",
        "success",
        "",
        List.of(
            new AllreduceLatency("0", 1024, 4.2e-5, 5.1e-5, 10, 4.4e-4),
            new AllreduceBusBandwidth("0", 67108864, 2.1e10, 2.1e10)));
    r.probed(
        "peer_p2p",
        "node-01:10187",
        "node-02:10187",
        "success",
        "",
        List.of(
            new PeerP2pBandwidth(0, 1, false, 67108864, 2.3e10, 2.9e-3, 3.1e-3, 10),
            new PeerP2pBandwidth(1, 0, false, 67108864, 1.1e10, 6.1e-3, 6.4e-3, 10),
            new PeerP2pBandwidth(0, 1, true, 67108864, 4.4e10, 3.05e-3, 3.2e-3, 10)));
    r.probed(
        "peer_allreduce",
        "node-01:10187",
        "node-03:10187",
        "skipped_peer",
        "a probe or a check of this host holds the devices",
        List.of());
    r.answered(
        "peer_allreduce",
        "node-00:10187",
        ProbeRun.of("peer_allreduce", List.of(TargetResult.success("0", 2.5, List.of()))));
    r.leaseRefused("peer_allreduce", "node-04:10187");
    return r;
  }
}
