package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.history.SeriesHistory;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.probe.hosttransfer.HostTransferBandwidth;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.HandClock;
import io.linkwatch.verdict.Expectations;
import io.linkwatch.verdict.InactiveLink;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The page rendered from a result store and its history, without a browser. */
class StatusPageTest {
  final HandClock clock = new HandClock(Instant.parse("2026-12-03T12:00:00Z"));
  final ResultStore store = new ResultStore(clock, new SeriesHistory(Duration.ofMinutes(5)));
  final HistoryReferences history = new HistoryReferences(store.history(), clock::millis);

  String render() {
    return new StatusPage(io.linkwatch.verdict.Expectations.of(List.of()))
        .render(
            io.linkwatch.state.StatusDocuments.of(store, null, Map.of()),
            history,
            clock.instant(),
            5);
  }

  /**
   * The probes between servers have a section of their own: whence the members, the peers by
   * verdict, and whom this host's evidence names (a switch here: a note, not this host's fault).
   * Without a {@code peers:} source there is no section.
   */
  @Test
  void thePathsToOtherServersShowThePeersByVerdictAndWhomThisHostNames() {
    p2p(150);
    assertThat(render()).doesNotContain("Paths to other servers");
    Map<String, Integer> paths = new java.util.LinkedHashMap<>();
    paths.put("ok", 4);
    paths.put("lossy", 0);
    paths.put("unreachable", 3);
    paths.put("agent_down", 0);
    paths.put("udp_blocked", 0);
    var peers =
        new io.linkwatch.status.PeerSection(
            "static",
            8,
            "n-01:10187",
            60.0,
            420.0,
            paths,
            List.of(
                new io.linkwatch.status.PeerSection.Suspect(
                    "tor",
                    "rack-07",
                    null,
                    "unreachable",
                    "all 3 peers under it failed (unreachable) while 4 peers elsewhere answered")),
            null,
            List.of(
                new io.linkwatch.status.PairEntry(
                    "peer_p2p",
                    "n-01:10187",
                    "n-02:10187",
                    "success",
                    "",
                    clock.instant().minusSeconds(90),
                    true,
                    clock.instant().minusSeconds(90),
                    List.of(
                        new io.linkwatch.probe.result.PeerP2pBandwidth(
                            0, 1, false, 64L << 20, 2.3e10, 2.9e-3, 3.1e-3, 10))),
                new io.linkwatch.status.PairEntry(
                    "peer_allreduce",
                    "n-01:10187",
                    "n-03:10187",
                    "error",
                    "on n-03:10187: HcclAllReduce returned 13: tcp transfer fail",
                    clock.instant().minusSeconds(30),
                    false,
                    clock.instant().minusSeconds(1830),
                    List.of(
                        new io.linkwatch.probe.collective.AllreduceBusBandwidth(
                            "0", 64L << 20, 2.1e10, 2.1e10)))),
            Map.of("ok", 12, "lossy", 0, "unreachable", 2),
            null);
    String page =
        new StatusPage(Expectations.of(List.of()))
            .render(
                io.linkwatch.state.StatusDocuments.of(store, null, Map.of()).withPeers(peers),
                history,
                clock.instant(),
                5);
    assertThat(page)
        .contains(
            "8 members from static; this host is n-01:10187; a round every 60 s, every pair met"
                + " within 420 s; NPU ports: 12 paths ok, 2 failing")
        .contains("<tr data-verdict=\"unreachable\"><td>unreachable<td class=\"cell low\">3</tr>")
        .contains("<tr data-verdict=\"ok\"><td>ok<td class=\"cell ok\">4</tr>")
        .contains(
            "<tr data-kind=\"switch\"><td>switch<td>rack-07<td><td class=\"cell low\">unreachable"
                + "<td>all 3 peers under it failed (unreachable) while 4 peers elsewhere"
                + " answered</tr>")
        .doesNotContain("This host's probes name nobody")
        .contains(
            "<tr data-probe=\"peer_p2p\" data-partner=\"n-02:10187\"><td>peer_p2p<td>n-02:10187"
                + "<td class=\"cell ok\">success<td>90 s ago<td>rank 0-&gt;1 64MiB 23.0GB/s<td></tr>")
        .contains(
            "<tr data-probe=\"peer_allreduce\" data-partner=\"n-03:10187\"><td>peer_allreduce"
                + "<td>n-03:10187<td class=\"cell low\">error<td>30 s ago<td>measured 30 min"
                + " ago: 0 64MiB busbw 21.0GB/s algbw 21.0GB/s<td>on n-03:10187: HcclAllReduce"
                + " returned 13: tcp transfer fail</tr>");
  }

  /** The p2p cell 0->1: its state, its title and the series its chart is drawn from. */
  static List<String> cell(String page) {
    Matcher m =
        Pattern.compile(
                "<td class=\"cell [a-z]+\" data-src=\"0\" data-dst=\"1\" [^>]*data-state=\"([a-z]+)\""
                    + " title=\"([^\"]*)\">.*?<span class=\"spark\" data-series=\"([^\"]*)\">")
            .matcher(page);
    assertThat(m.find()).as(page).isTrue();
    return List.of(m.group(1), m.group(2), m.group(3));
  }

  static List<String> all(String page, String regex) {
    Matcher m = Pattern.compile(regex).matcher(page);
    List<String> out = new java.util.ArrayList<>();
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  void p2p(double gbps) {
    store.record(
        ProbeRun.of(
            "p2p",
            List.of(
                TargetResult.success(
                    "0->1",
                    0.1,
                    List.of(new P2pBandwidth(0, 1, "HCCS", 1 << 20, gbps * 1e9, 1))))));
  }

  /**
   * A pair whose own link reads down is low, whatever its figure's history says: the copies took
   * another path, and a history made of that path's figures painted them ok. A link its product
   * leaves inactive by design is not painted.
   */
  @Test
  void aPairWhoseLinkReadsDownIsLowWhateverItsHistory() {
    store.record(
        ProbeRun.of(
            "topology",
            List.of(
                TargetResult.success(
                    "dev0",
                    0.1,
                    List.of(new DeviceInfo(0, "Ascend910B3", 0, 0, "", 64L << 30, null))))));
    for (int i = 0; i < 3; i++) {
      p2p(30);
      clock.now = clock.now.plus(Duration.ofMinutes(5));
    }
    p2p(30);
    assertThat(cell(render())).first().as("against its own history").isEqualTo("ok");

    PassiveStore passive = new PassiveStore(clock);
    passive.recordLinks(
        new DeviceLinks(
            0,
            "dcmi",
            null,
            List.of(new LinkReading("1", "HCCS", "1", false, null, null, 32, 20, null, null, null)),
            null,
            null,
            null,
            null,
            null));
    List<String> down = cell(render(Expectations.of(List.of()), passive));
    assertThat(down.get(0)).isEqualTo("low");
    assertThat(down.get(1)).startsWith("dev0 HCCS link 1 reads down: ");

    Expectations byDesign =
        new Expectations(
            List.of(), List.of(new InactiveLink("Ascend910B", "HCCS", List.of(1), "not wired")));
    assertThat(cell(render(byDesign, passive))).first().isEqualTo("ok");
  }

  String render(Expectations expectations, PassiveStore passive) {
    return new StatusPage(expectations)
        .render(
            io.linkwatch.state.StatusDocuments.of(store, passive, Map.of()),
            history,
            clock.instant(),
            5);
  }

  @Test
  void aCellWithoutExpectedFigureIsJudgedAgainstTheHistoryAndNamesItsChart() {
    p2p(100);
    assertThat(cell(render())).first().isEqualTo("none");
    assertThat(cell(render()).get(2)).isEqualTo("p2p 0-&gt;1 bandwidth 1048576");

    clock.now = clock.now.plus(Duration.ofMinutes(5));
    p2p(110);
    clock.now = clock.now.plus(Duration.ofMinutes(5));
    p2p(90);
    clock.now = clock.now.plus(Duration.ofMinutes(5));
    p2p(80);
    String page = render();
    // 80 against the median of 100, 110 and 90.
    assertThat(cell(page).get(0)).isEqualTo("warn");
    assertThat(cell(page).get(1)).startsWith("80 % of this series&#39; median over its 3 earlier");
    assertThat(all(page, "<div id=\"content\" data-history-version=\"(\\d+)\">"))
        .containsExactly(String.valueOf(store.history().version()));

    clock.now = clock.now.plus(Duration.ofMinutes(5));
    p2p(40);
    assertThat(cell(render()).get(0)).isEqualTo("low");
  }

  /** A demo's first minutes: grey cells say why they are grey and when they get a colour. */
  @Test
  void greyCellsSayWhyAndForHowLong() {
    p2p(100);
    assertThat(render())
        .contains(
            "<p class=\"legend\" id=\"waiting-for-reference\">1 grey cells have no reference"
                + " yet")
        .contains("one a step (5m, web.history_step)");
    clock.now = clock.now.plus(Duration.ofMinutes(5));
    p2p(100);
    assertThat(render()).doesNotContain("waiting-for-reference");
  }

  @Test
  void aHostTransferRowSaysWhetherPagePlacementWasVerified() {
    List<Measurement> checked = figures(0, "1", "numa_maps");
    List<Measurement> unknown = figures(1, "unknown", "unknown");
    store.record(
        ProbeRun.of(
            "host_transfer",
            List.of(
                TargetResult.success("dev0/node1", 1, checked),
                TargetResult.success("dev0/node2", 1, unknown))));
    String page = render();
    assertThat(all(page, "<td class=\"placement\" data-verified=\"([a-z]+\">[a-z]+)"))
        .containsExactly("true\">yes", "false\">no");
    assertThat(all(page, "data-series=\"(host_transfer [^\"]*)\""))
        .contains("host_transfer dev0/node1 pinned_h2d 67108864");
  }

  static List<Measurement> figures(int row, String memNode, String method) {
    int node = row + 1;
    return List.of(
        new HostTransferBandwidth(0, "h2d", "pinned", node, memNode, 64 << 20, 5e10, method),
        new HostTransferBandwidth(0, "d2h", "pinned", node, memNode, 64 << 20, 4e10, method));
  }
}
