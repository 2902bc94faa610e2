package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.peer.PeerFindings.Kind;
import io.linkwatch.peer.PeerFindings.Suspect;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who this host's own evidence names, pure. */
class PeerFindingsTest {
  private static final String SELF = "a:10187";

  private static PathResult result(String peer, PathVerdict v, int othersAnswered) {
    return result(peer, v, othersAnswered, Instant.EPOCH);
  }

  private static PathResult result(String peer, PathVerdict v, int othersAnswered, Instant at) {
    int received = v == PathVerdict.OK ? 10 : v == PathVerdict.LOSSY ? 6 : 0;
    return new PathResult(
        peer,
        "eth0",
        "eth0",
        10,
        received,
        1e-4,
        2e-4,
        received * 1e-4,
        v != PathVerdict.UNREACHABLE,
        1e-4,
        null,
        at,
        false,
        v,
        othersAnswered);
  }

  private static List<String> named(List<Suspect> s) {
    return s.stream().map(x -> x.kind().id() + " " + x.host() + " " + x.verdict().id()).toList();
  }

  @Test
  void aPeerThatFailsWhileTheSecondPassReachesOthersIsNamed() {
    List<PathResult> window =
        List.of(
            result("b:10187", PathVerdict.UNREACHABLE, 2),
            result("c:10187", PathVerdict.OK, -1),
            result("d:10187", PathVerdict.OK, -1));
    assertThat(named(PeerFindings.judge(SELF, "eth0", window)))
        .containsExactly("peer b:10187 unreachable");
  }

  @Test
  void aFailureWithoutASecondPassThatWorkedNamesNobody() {
    // The same failure with no second pass (budget spent), or one that reached nobody: this
    // host's own side is not known to work, so the peer is not blamed. With the check off (any
    // failure named), b would be.
    for (int others : new int[] {-1, 0}) {
      List<PathResult> window =
          List.of(
              result("b:10187", PathVerdict.LOSSY, others),
              result("c:10187", PathVerdict.OK, -1),
              result("d:10187", PathVerdict.OK, -1));
      assertThat(PeerFindings.judge(SELF, "eth0", window)).as("second pass " + others).isEmpty();
    }
  }

  @Test
  void mostPeersFailingNamesThisHostsOwnNicAndNoPeer() {
    List<PathResult> window =
        List.of(
            result("b:10187", PathVerdict.LOSSY, 0),
            result("c:10187", PathVerdict.LOSSY, -1),
            result("d:10187", PathVerdict.UNREACHABLE, -1),
            result("e:10187", PathVerdict.OK, -1));
    List<Suspect> s = PeerFindings.judge(SELF, "eth0", window);
    assertThat(named(s)).containsExactly("self a:10187 unreachable");
    assertThat(s.get(0).nic()).isEqualTo("eth0");
    assertThat(s.get(0).evidence()).isEqualTo("3 of 4 peers failed (unreachable)");
  }

  @Test
  void aHostMendingFromItsOwnFaultBlamesNoPeerOnTheWay() {
    // Its faulty side's failures (second passes that reached nobody) linger in the window while
    // fresh probes pass: below a majority it no longer names itself, and names nobody else.
    List<PathResult> window = new ArrayList<>();
    window.add(result("b:10187", PathVerdict.LOSSY, 0));
    window.add(result("c:10187", PathVerdict.LOSSY, -1));
    window.add(result("d:10187", PathVerdict.OK, -1));
    window.add(result("e:10187", PathVerdict.OK, -1));
    window.add(result("f:10187", PathVerdict.OK, -1));
    assertThat(PeerFindings.judge(SELF, "eth0", window)).isEmpty();
  }

  @Test
  void oneFailureAmongTwoPathsIsNotAMajority() {
    List<PathResult> window =
        List.of(
            result("b:10187", PathVerdict.AGENT_DOWN, 1), result("c:10187", PathVerdict.OK, -1));
    List<Suspect> s = PeerFindings.judge(SELF, "eth0", window);
    assertThat(s).extracting(Suspect::kind).containsExactly(Kind.PEER);
    assertThat(s.get(0).evidence()).isEqualTo("agent_down from here while 1 other peers answered");
  }

  @Test
  void peersWhoseAgentIsDownOrBlocksUdpNeverCountAgainstThisHost() {
    // A rolling upgrade: most peers still run a version with no echo responder, or a firewall
    // opened only TCP. Their paths work; this host is not named, each of them is.
    List<PathResult> window =
        List.of(
            result("b:10187", PathVerdict.AGENT_DOWN, -1),
            result("c:10187", PathVerdict.AGENT_DOWN, -1),
            result("d:10187", PathVerdict.UDP_BLOCKED, -1),
            result("e:10187", PathVerdict.OK, -1));
    assertThat(named(PeerFindings.judge(SELF, "eth0", window)))
        .containsExactly(
            "peer b:10187 agent_down", "peer c:10187 agent_down", "peer d:10187 udp_blocked");
  }

  @Test
  void onlyTheLatestResultsJudgeThisHostsOwnSide() {
    // Three failures an hour ago, five passes since: a large fleet's cover is hours long, and a
    // repaired host must not stay named until it ends.
    Instant t = Instant.parse("2026-12-07T00:00:00Z");
    List<PathResult> window = new ArrayList<>();
    for (String p : List.of("b", "c", "d")) {
      window.add(result(p + ":10187", PathVerdict.UNREACHABLE, 0, t));
    }
    for (String p : List.of("e", "f", "g", "h", "i")) {
      window.add(result(p + ":10187", PathVerdict.OK, -1, t.plusSeconds(3600)));
    }
    assertThat(PeerFindings.judge(SELF, "eth0", window)).isEmpty();
    // The same failures as the newest results: named.
    List<PathResult> fresh = new ArrayList<>(window.subList(3, 8));
    for (String p : List.of("b", "c", "d")) {
      fresh.add(result(p + ":10187", PathVerdict.UNREACHABLE, 0, t.plusSeconds(7200)));
    }
    assertThat(named(PeerFindings.judge(SELF, "eth0", fresh)))
        .containsExactly("self a:10187 unreachable");
  }

  /** Peers b, c, d under switch t2; e, f under t3; this host and g under t1. */
  private static String torOf(String peer) {
    return switch (peer.substring(0, 1)) {
      case "b", "c", "d" -> "t2";
      case "e", "f" -> "t3";
      case "g" -> "t1";
      default -> null;
    };
  }

  private static List<PathResult> switchDown(PathVerdict v) {
    return List.of(
        result("b:10187", v, 2),
        result("c:10187", v, 1),
        result("d:10187", v, 2),
        result("e:10187", PathVerdict.OK, -1),
        result("f:10187", PathVerdict.OK, -1),
        result("g:10187", PathVerdict.OK, -1));
  }

  @Test
  void everyPathThroughOneSwitchFailingNamesTheSwitchOnceAndNotItsHosts() {
    List<Suspect> s =
        PeerFindings.judge(
            SELF, "eth0", "t1", switchDown(PathVerdict.UNREACHABLE), PeerFindingsTest::torOf);
    assertThat(named(s)).containsExactly("tor t2 unreachable");
    assertThat(s.get(0).evidence())
        .isEqualTo("all 3 peers under it failed (unreachable) while 3 peers elsewhere answered");
    // Without the members' switches, and with five newer passes elsewhere (so that this host's
    // own side is not in doubt), the failures name each host under it instead.
    List<PathResult> more = new ArrayList<>(switchDown(PathVerdict.UNREACHABLE).subList(0, 3));
    for (String p : List.of("e", "f", "g", "h", "i")) {
      more.add(result(p + ":10187", PathVerdict.OK, -1, Instant.EPOCH.plusSeconds(60)));
    }
    assertThat(named(PeerFindings.judge(SELF, "eth0", more)))
        .containsExactly(
            "peer b:10187 unreachable", "peer c:10187 unreachable", "peer d:10187 unreachable");
    assertThat(named(PeerFindings.judge(SELF, "eth0", "t1", more, PeerFindingsTest::torOf)))
        .containsExactly("tor t2 unreachable");
  }

  @Test
  void aSwitchDownIsNoEvidenceAgainstThisHostsOwnSide() {
    // Of the latest five, three went to the switch that is down: a majority, which without the
    // switches known reads as this host's own side failing.
    List<PathResult> window = new ArrayList<>(switchDown(PathVerdict.LOSSY).subList(0, 4));
    window.add(result("g:10187", PathVerdict.OK, -1));
    assertThat(named(PeerFindings.judge(SELF, "eth0", window)))
        .containsExactly("self a:10187 lossy");
    assertThat(named(PeerFindings.judge(SELF, "eth0", "t1", window, PeerFindingsTest::torOf)))
        .containsExactly("tor t2 lossy");
  }

  @Test
  void aSwitchIsNotNamedOnOnePathOnAPartialFailureOrWhenNothingElsePassed() {
    // One member under it in the evidence: that host, not its switch.
    List<PathResult> one =
        List.of(
            result("b:10187", PathVerdict.UNREACHABLE, 2),
            result("e:10187", PathVerdict.OK, -1),
            result("f:10187", PathVerdict.OK, -1));
    assertThat(named(PeerFindings.judge(SELF, "eth0", "t1", one, PeerFindingsTest::torOf)))
        .containsExactly("peer b:10187 unreachable");
    // One of its members answers: not the switch.
    List<PathResult> partial = new ArrayList<>(switchDown(PathVerdict.UNREACHABLE));
    partial.set(2, result("d:10187", PathVerdict.OK, -1));
    assertThat(named(PeerFindings.judge(SELF, "eth0", "t1", partial, PeerFindingsTest::torOf)))
        .containsExactly("peer b:10187 unreachable", "peer c:10187 unreachable");
    // Nothing passed anywhere: this host's own side, never a switch.
    List<PathResult> allDown =
        List.of(
            result("b:10187", PathVerdict.UNREACHABLE, 0),
            result("c:10187", PathVerdict.UNREACHABLE, 0),
            result("e:10187", PathVerdict.UNREACHABLE, 0));
    assertThat(named(PeerFindings.judge(SELF, "eth0", "t1", allDown, PeerFindingsTest::torOf)))
        .containsExactly("self a:10187 unreachable");
    // Its own switch is never named from here: its failure is this host's own side.
    List<PathResult> ownDown =
        List.of(
            result("g:10187", PathVerdict.UNREACHABLE, 1),
            result("h:10187", PathVerdict.UNREACHABLE, 1),
            result("e:10187", PathVerdict.OK, -1));
    assertThat(
            named(
                PeerFindings.judge(
                    SELF, "eth0", "t1", ownDown, p -> p.startsWith("e") ? "t3" : "t1")))
        .doesNotContain("tor t1 unreachable")
        .containsExactly("self a:10187 unreachable");
  }

  @Test
  void nothingFailedNamesNobody() {
    assertThat(PeerFindings.judge(SELF, "eth0", List.of(result("b:10187", PathVerdict.OK, -1))))
        .isEmpty();
    assertThat(PeerFindings.judge(SELF, null, List.of())).isEmpty();
  }
}
