package io.linkwatch.testing;

import io.linkwatch.peer.PathResult;
import io.linkwatch.peer.PathVerdict;
import io.linkwatch.peer.PeerFindings;
import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.peer.PeerSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Probes between servers as one agent knows them, fixed: node-01 of three members; node-02 (under
 * its switch) failed and was named after a second pass through node-03, which answered; node-01's
 * first NPU port pinged node-03's.
 */
public final class PeerFixture {
  private PeerFixture() {}

  public static PeerSnapshot snapshot() {
    Instant at = Instant.parse("2026-12-04T01:04:00Z");
    List<Member> members =
        List.of(
            new Member("node-01:10187", "leaf-a", "r0"),
            new Member("node-02:10187", "leaf-a"),
            new Member("node-03:10187", null));
    List<PathResult> window =
        List.of(
            new PathResult(
                "node-02:10187",
                "eth0",
                null,
                20,
                0,
                Double.NaN,
                Double.NaN,
                0,
                false,
                Double.NaN,
                "20 of 20 echoes lost",
                at,
                false,
                PathVerdict.UNREACHABLE,
                1),
            new PathResult(
                "node-03:10187",
                "eth0",
                "eth1",
                20,
                20,
                1.9e-4,
                4.1e-4,
                4.4e-3,
                true,
                2.2e-4,
                null,
                at,
                true,
                PathVerdict.OK,
                -1));
    Map<String, Long> probes = new LinkedHashMap<>();
    probes.put("sent", 6L);
    probes.put("answered", 5L);
    probes.put("second_pass", 2L);
    probes.put("skipped_budget", 0L);
    return new PeerSnapshot(
        "static",
        members,
        members.get(0),
        "eth0",
        Duration.ofSeconds(60),
        Duration.ofMinutes(2),
        240,
        13,
        window,
        window,
        PeerFindings.judge("node-01:10187", "eth0", window),
        probes,
        null,
        0,
        0,
        npu(at));
  }

  /** node-01's two NPU ports; its first pinged node-03's first, every echo back. */
  private static PeerSnapshot.NpuPaths npu(Instant at) {
    PathResult ping =
        new PathResult(
            "node-03:10187",
            "npu0",
            "npu0",
            3,
            3,
            6.1e-5,
            6.7e-5,
            1.83e-4,
            false,
            Double.NaN,
            null,
            at,
            false,
            PathVerdict.OK,
            -1);
    Map<String, Long> pings = new LinkedHashMap<>();
    pings.put("sent", 2L);
    pings.put("second_pass", 0L);
    pings.put("recheck", 0L);
    pings.put("skipped_busy", 0L);
    pings.put("failed", 0L);
    return new PeerSnapshot.NpuPaths(
        new java.util.TreeMap<>(Map.of(0, "10.10.100.10", 1, "10.10.100.11")),
        List.of(ping),
        List.of(ping),
        pings,
        null);
  }
}
