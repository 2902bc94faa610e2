package io.linkwatch.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.linkwatch.status.StatusCodec;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.verdict.Verdict.State;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {
  /** An A3's status: the topology names the dies, p2p 0->1 at 256 MiB, one SIO link read. */
  static JsonObject a3(double p2pBytesPerSecond, String link, String result) {
    return JsonParser.parseString(
            """
            {"targets": [
              {"probe": "topology", "target": "dev0", "result": "success", "error": "",
               "measurements": [{"type": "DeviceInfo", "device": 0, "name": "Ascend910_9382"}]},
              {"probe": "topology", "target": "dev1", "result": "success", "error": "",
               "measurements": [{"type": "DeviceInfo", "device": 1, "name": "Ascend910_9382"}]},
              {"probe": "p2p", "target": "0->1", "result": "%s",
               "error": "aclrtSynchronizeStream returned 507011: injected fault\\nmore",
               "measurements": [{"type": "P2pBandwidth", "src": 0, "dst": 1, "link": "SIO",
                                 "size_bytes": 268435456, "bytes_per_second": %s}]}],
             "passive": {"devices": [
              {"source": "dcmi", "device": 0, "result": "success",
               "links": [%s]}]}}
            """
                .formatted(result, p2pBytesPerSecond, link))
        .getAsJsonObject();
  }

  static final String SIO = "{\"link\": \"0\", \"link_type\": \"SIO\", \"peer\": \"1\"}";

  static Verdict judge(JsonObject status) {
    return Verdict.judge(doc(status), io.linkwatch.config.ExpectedFigureTable.SHIPPED);
  }

  /** The fixture as the typed document the verdict reads, through the document's one codec. */
  static StatusDocument doc(JsonObject status) {
    try {
      return StatusCodec.read(status.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aHealthyA3IsOk() {
    Verdict v = judge(a3(165e9, SIO, "success"));
    assertThat(v.state()).isEqualTo(State.OK);
    assertThat(v.firstLine("OK")).isEqualTo("OK - 2 devices, 1 p2p figures, 1 links: as expected");
    assertThat(v.notes()).isEmpty();
  }

  /**
   * Probes between servers: this host naming its own side fails it (keep it out of multi-node
   * jobs); a peer or switch it names is a note and leaves it OK, so a healthy host is not drained
   * for a neighbour's NIC or another rack's switch. The section is read back through the document's
   * codec.
   */
  @Test
  void thisHostsOwnNetworkFailsItAndAPeerItNamesIsANote() {
    JsonObject status = a3(165e9, SIO, "success");
    status.add(
        "peers",
        JsonParser.parseString(
            """
            {"source": "static", "members": 6, "self": "n-01:10187", "round_seconds": 60.0,
             "cover_seconds": 300.0, "paths": {"ok": 4, "lossy": 0, "unreachable": 1,
             "agent_down": 0}, "membership_error": null,
             "suspects": [{"kind": "peer", "host": "n-05:10187", "nic": null,
               "verdict": "unreachable",
               "evidence": "unreachable from here while 4 other peers answered"},
              {"kind": "tor", "host": "rack-07", "nic": null, "verdict": "unreachable",
               "evidence": "all 3 peers under it failed (unreachable) while 4 peers elsewhere answered"},
              {"kind": "peer", "host": "n-06:10187", "nic": "npu3", "verdict": "unreachable",
               "evidence": "unreachable from here while 2 other peers answered"}],
             "pairs": [{"probe": "peer_allreduce", "src_host": "n-01:10187", "dst_host": "n-02:10187",
               "result": "error", "error": "on n-02:10187: HcclAllReduce returned 9: timeout",
               "last_run": "2026-12-04T01:00:00Z", "ok": false, "figures_at": null, "figures": []},
              {"probe": "peer_p2p", "src_host": "n-01:10187", "dst_host": "n-02:10187",
               "result": "skipped_peer", "error": "a probe of this host holds the devices",
               "last_run": "2026-12-04T01:00:00Z", "ok": null, "figures_at": null, "figures": []}]}
            """));
    Verdict v = judge(status);
    assertThat(v.state()).as("one failing pair cannot tell its ends apart").isEqualTo(State.OK);
    assertThat(v.notes())
        .containsExactly(
            "peer n-05:10187: unreachable from here while 4 other peers answered",
            "switch rack-07: all 3 peers under it failed (unreachable) while 4 peers elsewhere"
                + " answered",
            "peer n-06:10187 (npu3): unreachable from here while 2 other peers answered",
            "peer_allreduce with n-02:10187: last run error (on n-02:10187: HcclAllReduce returned"
                + " 9: timeout)");

    status
        .getAsJsonObject("peers")
        .add(
            "suspects",
            JsonParser.parseString(
                """
                [{"kind": "self", "host": "n-01:10187", "nic": "eth0", "verdict": "lossy",
                  "evidence": "4 of 5 peers failed (lossy)"}]
                """));
    v = judge(status);
    assertThat(v.state()).isEqualTo(State.FAIL);
    assertThat(v.firstLine("FAIL"))
        .isEqualTo("FAIL - network eth0: LW-PEER-NIC 4 of 5 peers failed (lossy)");

    // The port readers know that interface: its counters and switch port join the finding.
    status
        .getAsJsonObject("passive")
        .add(
            "nic_ports",
            JsonParser.parseString(
                """
                [{"source": "infiniband", "nic": "mlx5_0", "port": 1, "link_layer": "Ethernet",
                  "state": "ACTIVE", "up": true, "was_up": true, "speed_bits_per_second": 4.0E11,
                  "errors": {"port_rcv_errors": 0, "symbol_error": 37}, "netdev": "eth0",
                  "lldp_system": "leaf-3", "lldp_port": "Ethernet1/7"},
                 {"source": "infiniband", "nic": "mlx5_1", "port": 1, "link_layer": "Ethernet",
                  "state": "ACTIVE", "up": true, "was_up": true, "netdev": "eth1"}]
                """));
    assertThat(judge(status).findings())
        .filteredOn(f -> f.code().equals("LW-PEER-NIC"))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.detail())
                    .isEqualTo(
                        "4 of 5 peers failed (lossy); port nic mlx5_0 port 1: up, 400 Gb/s,"
                            + " counters symbol_error 37, switch leaf-3 port Ethernet1/7"));

    // An NPU port that fails to its peers' same port: that port is named, with what hccn_tool
    // reads of it.
    status
        .getAsJsonObject("peers")
        .add(
            "suspects",
            JsonParser.parseString(
                """
                [{"kind": "self", "host": "n-01:10187", "nic": "npu1", "verdict": "unreachable",
                  "evidence": "5 of 5 peers failed (unreachable)"}]
                """));
    status
        .getAsJsonObject("passive")
        .add(
            "nic_ports",
            JsonParser.parseString(
                """
                [{"source": "hccn_tool", "nic": "npu1", "port": 0, "link_layer": "Ethernet",
                  "state": "ACTIVE", "up": true, "was_up": true, "speed_bits_per_second": 4.0E11,
                  "errors": {"roce_rx_err_pkt": 12},
                  "lldp_system": "leaf-3", "lldp_port": "400GE1/0/2"}]
                """));
    assertThat(judge(status).firstLine("FAIL"))
        .startsWith("FAIL - network npu1: LW-PEER-NIC 5 of 5 peers failed (unreachable)");
    assertThat(judge(status).findings())
        .filteredOn(f -> f.code().equals("LW-PEER-NIC"))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.detail())
                    .isEqualTo(
                        "5 of 5 peers failed (unreachable); port nic npu1 port 0: up, 400 Gb/s,"
                            + " counters roce_rx_err_pkt 12, switch leaf-3 port 400GE1/0/2"));
  }

  /**
   * The agent's first seconds: a p2p figure but no device inventory yet. It cannot be matched to
   * the product's row, so "OK - 0 devices" would claim a judgement that was not made.
   */
  @Test
  void beforeTheTopologyRanTheAgentIsUnknownNotOk() {
    JsonObject status = a3(165e9, SIO, "success");
    status.getAsJsonArray("targets").remove(0);
    status.getAsJsonArray("targets").remove(0);
    status.add(
        "next_runs",
        JsonParser.parseString(
            "{\"topology\": \"2026-12-04T01:00:00Z\", \"p2p\": \"2026-12-04T01:00:05Z\"}"));
    Verdict v = judge(status);
    assertThat(v.state()).isEqualTo(State.UNKNOWN);
    assertThat(v.firstLine("UNKNOWN"))
        .isEqualTo("UNKNOWN - agent: LW-NO-DATA no device inventory yet (topology not run)");

    // An agent that does not run the topology probe has no inventory to wait for.
    status.getAsJsonObject("next_runs").remove("topology");
    assertThat(judge(status).state()).isEqualTo(State.OK);
  }

  /**
   * A CRC storm on a link that is up at full width: a warning with its rate, as the alert rule
   * LinkwatchLinkErrorRate would fire; a trickle under the threshold is no finding.
   */
  @Test
  void aLinkCountingErrorsFasterThanTheAlertsThresholdWarns() {
    String noisy =
        "{\"link\": \"0\", \"link_type\": \"SIO\", \"peer\": \"1\", \"up\": true,"
            + " \"errors\": {\"crc\": 15000}, \"errors_per_second\": 50.0}";
    Verdict v = judge(a3(165e9, noisy, "success"));
    assertThat(v.state()).isEqualTo(State.WARN);
    assertThat(v.firstLine("WARN"))
        .isEqualTo("WARN - dev0 SIO link 0 (to 1): LW-LINK-ERRORS 50.0 errors/s, threshold 1/s");
    String trickle = noisy.replace("50.0", "0.2");
    assertThat(judge(a3(165e9, trickle, "success")).state()).isEqualTo(State.OK);
  }

  /**
   * Each finding carries the shipped table's action; one the agent saw come back often (its
   * standing findings escalate it) fails {@code status} with the stronger action, and without the
   * repeats the same readings only warn.
   */
  @Test
  void aFindingThatKeepsComingBackFailsTheStatusWithTheEscalatedAction() {
    Expectations shipped = io.linkwatch.config.ConfigLoader.parse("f.yaml", "").expectations();
    String noisy =
        "{\"link\": \"0\", \"link_type\": \"SIO\", \"peer\": \"1\", \"up\": true,"
            + " \"errors\": {\"crc\": 15000}, \"errors_per_second\": 50.0}";
    StatusDocument readings = doc(a3(165e9, noisy, "success"));
    Verdict once = Verdict.judge(readings, shipped);
    assertThat(once.state()).isEqualTo(State.WARN);
    assertThat(once.findings().get(0).action())
        .isEqualTo("watch the link; reseat its cable at the next maintenance");
    // The agent's loop: judged on its results alone, the errors come and go three times.
    StandingFindings standing = new StandingFindings(shipped.actions());
    java.time.Instant t = java.time.Instant.parse("2026-12-04T01:00:00Z");
    List<io.linkwatch.status.FindingEntry> entries = List.of();
    for (int i = 0; i < 3; i++) {
      entries = standing.observe(Verdict.judge(readings, shipped), t.plusSeconds(i * 600L));
      standing.observe(
          Verdict.judge(doc(a3(165e9, SIO, "success")), shipped), t.plusSeconds(i * 600L + 300));
    }
    assertThat(entries).singleElement().extracting(e -> e.escalated()).isEqualTo(true);
    // What it concerns, as data: device 0's links.
    assertThat(entries.get(0).subsystem()).isEqualTo("links");
    assertThat(entries.get(0).devices()).containsExactly(0);
    Verdict often = Verdict.judge(readings.withFindings(entries), shipped);
    assertThat(often.state()).isEqualTo(State.FAIL);
    assertThat(often.firstLine("FAIL"))
        .isEqualTo("FAIL - dev0 SIO link 0 (to 1): LW-LINK-ERRORS 50.0 errors/s, threshold 1/s");
    assertThat(often.findings().get(0).action())
        .isEqualTo("drain the node and replace the cable or retimer: errors keep coming back");
    // An escalated entry for another subject changes nothing here.
    io.linkwatch.status.FindingEntry e = entries.get(0);
    io.linkwatch.status.FindingEntry elsewhere =
        new io.linkwatch.status.FindingEntry(
            e.code(),
            e.state(),
            "dev1 SIO link 0 (to 0)",
            e.evidence(),
            e.detail(),
            e.action(),
            e.firstSeen(),
            e.count(),
            e.repeats(),
            true,
            e.subsystem(),
            List.of(1),
            List.of());
    assertThat(Verdict.judge(readings.withFindings(List.of(elsewhere)), shipped).state())
        .isEqualTo(State.WARN);
  }

  /**
   * What {@code status} says of a culprit the agent's standing findings do not hold as named yet:
   * unattributed, with what was seen; once they hold it, named.
   */
  @Test
  void aCulpritOfOneRoundIsUnattributedUntilTheStandingFindingsNameIt() {
    java.time.Instant round = java.time.Instant.parse("2026-12-07T01:00:00Z");
    Verdict.Finding device =
        new Verdict.Finding("LW-DEVICE-SLOW", State.WARN, "device 3", "all 14 of its pairs low")
            .about(Subsystem.LINKS, 3)
            .inRound(round);
    Verdict results = new Verdict(State.WARN, List.of(device), device.line(), List.of());
    Verdict once = results.asStanding(List.of(), FindingActions.NONE);
    assertThat(once.firstLine("WARN"))
        .isEqualTo(
            "WARN - pattern: device 3: LW-UNATTRIBUTED one round: LW-DEVICE-SLOW all 14 of i…");
    StandingFindings standing = new StandingFindings();
    standing.observe(results, round);
    List<io.linkwatch.status.FindingEntry> twice =
        standing.observe(
            new Verdict(State.WARN, List.of(device.inRound(round.plusSeconds(10))), "", List.of()),
            round.plusSeconds(10));
    assertThat(results.asStanding(twice, FindingActions.NONE).firstLine("WARN"))
        .isEqualTo("WARN - device 3: LW-DEVICE-SLOW all 14 of its pairs low");
  }

  @Test
  void aFigureUnderTheFloorFailsAndOneInTheBandWarns() {
    // 256 MiB on an A3's SIO: seed 000 measured 155.1 GB/s; floor 80 %, warning 90 %.
    Verdict low = judge(a3(100e9, SIO, "success"));
    assertThat(low.state()).isEqualTo(State.FAIL);
    assertThat(low.firstLine("FAIL"))
        .isEqualTo("FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 100.0 GB/s, floor 124.1 GB/s");
    Verdict band = judge(a3(130e9, SIO, "success"));
    assertThat(band.state()).isEqualTo(State.WARN);
    assertThat(band.findings())
        .extracting(Verdict.Finding::code)
        .containsExactly("LW-BELOW-EXPECTED");
  }

  @Test
  void aDowntrainedOrDownLinkFailsWhateverTheFigures() {
    Verdict lanes =
        judge(
            a3(
                165e9,
                "{\"link\": \"3\", \"link_type\": \"HCCS\", \"peer\": \"3\", \"up\": true,"
                    + " \"lanes\": 2, \"lanes_max\": 4}",
                "success"));
    assertThat(lanes.state()).isEqualTo(State.FAIL);
    assertThat(lanes.firstLine("FAIL"))
        .isEqualTo("FAIL - dev0 HCCS link 3 (to 3): LW-LINK-LANES 2 of 4 lanes");
    Verdict down =
        judge(
            a3(
                165e9,
                "{\"link\": \"5\", \"link_type\": \"NVLINK\", \"peer\": \"nvswitch\", \"up\":"
                    + " false}",
                "success"));
    assertThat(down.findings()).extracting(Verdict.Finding::code).containsExactly("LW-LINK-DOWN");
  }

  /**
   * Links a product leaves inactive by design read down at every read: with the row, neither down
   * nor on fewer lanes is a finding, and a note says which links were left unjudged; without it the
   * same host fails. A link the row does not list is still judged.
   */
  @Test
  void linksInactiveByDesignAreNoFindingAndOnlyThoseListed() {
    String links =
        "{\"link\": \"4\", \"link_type\": \"HCCS\", \"peer\": \"4\", \"up\": false},"
            + " {\"link\": \"5\", \"link_type\": \"HCCS\", \"peer\": \"5\", \"up\": true,"
            + " \"lanes\": 1, \"lanes_max\": 4}";
    JsonObject status = a3(165e9, links, "success");
    List<InactiveLink> row =
        List.of(new InactiveLink("Ascend910_93", "hccs", List.of(4, 5), "no HCCS on this SKU"));
    Expectations withRow = new Expectations(io.linkwatch.config.ExpectedFigureTable.SHIPPED, row);

    Verdict without = judge(status);
    assertThat(without.state()).isEqualTo(State.FAIL);
    assertThat(without.findings())
        .extracting(Verdict.Finding::code)
        .containsExactly("LW-LINK-DOWN", "LW-LINK-LANES");

    Verdict with = Verdict.judge(doc(status), withRow);
    assertThat(with.state()).isEqualTo(State.OK);
    assertThat(with.findings()).isEmpty();
    assertThat(with.firstLine("OK"))
        .isEqualTo("OK - 2 devices, 1 p2p figures, 2 links: as expected");
    assertThat(with.notes())
        .containsExactly(
            "2 links inactive by design, not judged: Ascend910_93 hccs links 4-5"
                + " (no HCCS on this SKU)");

    Expectations onlyFour =
        new Expectations(
            io.linkwatch.config.ExpectedFigureTable.SHIPPED,
            List.of(new InactiveLink("Ascend910_93", "HCCS", List.of(4), "one port unused")));
    assertThat(Verdict.judge(doc(status), onlyFour).findings())
        .extracting(Verdict.Finding::line)
        .containsExactly("dev0 HCCS link 5 (to 5): LW-LINK-LANES 1 of 4 lanes");
    // Another product's row changes nothing.
    Expectations otherProduct =
        new Expectations(
            io.linkwatch.config.ExpectedFigureTable.SHIPPED,
            List.of(new InactiveLink("NVIDIA H100", "HCCS", List.of(), "not this host")));
    assertThat(Verdict.judge(doc(status), otherProduct).state()).isEqualTo(State.FAIL);
  }

  @Test
  void anNpuPortBelowItsSpeedWarnsAndAHostShortOfPortsAtSpeedFails() {
    JsonObject status = a3(165e9, SIO, "success");
    JsonObject passive = status.getAsJsonObject("passive");
    passive.add(
        "nic_ports",
        JsonParser.parseString(
            """
            [{"source": "hccn_tool", "device": 0, "nic": "npu0", "port": 0,
              "link_layer": "Ethernet", "state": "ACTIVE", "up": true, "was_up": true,
              "speed_bits_per_second": 4.0E11, "expected_speed_bits_per_second": 4.0E11},
             {"source": "hccn_tool", "device": 1, "nic": "npu1", "port": 0,
              "link_layer": "Ethernet", "state": "ACTIVE", "up": true, "was_up": true,
              "speed_bits_per_second": 2.0E11, "expected_speed_bits_per_second": 4.0E11}]
            """));
    Verdict slow = judge(status);
    assertThat(slow.state()).isEqualTo(State.WARN);
    assertThat(slow.findings()).extracting(Verdict.Finding::code).containsExactly("LW-NIC-SLOW");
    assertThat(slow.firstLine("WARN"))
        .isEqualTo("WARN - nic npu1 port 0: LW-NIC-SLOW trained at 200 Gb/s, expected 400 Gb/s");

    // one of the product's two ports at speed: a rail short, whatever else is fine
    passive.add(
        "nic_port_counts",
        JsonParser.parseString(
            """
            [{"reader": "hccn_tool", "product": "Ascend910_93", "count": 2, "at_speed": 1,
              "speed_bits_per_second": 4.0E11, "source": "operator: linkwatch.yaml"}]
            """));
    Verdict missing = judge(status);
    assertThat(missing.state()).isEqualTo(State.FAIL);
    assertThat(missing.firstLine("FAIL"))
        .startsWith("FAIL - hccn_tool ports: LW-NIC-PORTS 1 of 2 up at 400 Gb/s or faster");
    assertThat(missing.findings())
        .anySatisfy(
            f ->
                assertThat(f.detail())
                    .isEqualTo("1 of 2 up at 400 Gb/s or faster (operator: linkwatch.yaml)"));

    // a port without a row, or a port that is down (LW-NIC-DOWN speaks for it), is not slow
    passive.remove("nic_port_counts");
    passive.add(
        "nic_ports",
        JsonParser.parseString(
            """
            [{"source": "infiniband", "nic": "mlx5_0", "port": 1, "link_layer": "InfiniBand",
              "state": "ACTIVE", "up": true, "was_up": true, "speed_bits_per_second": 1.0E11},
             {"source": "hccn_tool", "device": 1, "nic": "npu1", "port": 0,
              "link_layer": "Ethernet", "state": "DOWN", "up": false, "was_up": true,
              "expected_speed_bits_per_second": 4.0E11}]
            """));
    assertThat(judge(status).findings())
        .extracting(Verdict.Finding::code)
        .containsExactly("LW-NIC-DOWN");
  }

  @Test
  void aFailedProbeTargetFailsWithItsFirstErrorLine() {
    Verdict v = judge(a3(165e9, SIO, "error"));
    assertThat(v.state()).isEqualTo(State.FAIL);
    assertThat(v.findings().get(0).line())
        .isEqualTo(
            "p2p 0->1: LW-PROBE-FAILED error: aclrtSynchronizeStream returned 507011: injected"
                + " fault");
    assertThat(v.firstLine("FAIL")).hasSizeLessThanOrEqualTo(80).endsWith("…");
  }

  @Test
  void aFindingFromTheAgentsHistorySaysHowOldItIs() {
    JsonObject status = a3(100e9, SIO, "success");
    status
        .getAsJsonArray("targets")
        .get(2)
        .getAsJsonObject()
        .addProperty("last_run", "2026-12-03T10:00:00Z");
    Verdict v =
        Verdict.judge(
            doc(status),
            Expectations.of(io.linkwatch.config.ExpectedFigureTable.SHIPPED),
            Verdict.Source.AGENT,
            java.util.List.of(),
            java.time.Instant.parse("2026-12-03T10:05:00Z"));
    assertThat(v.findings().get(0).line())
        .isEqualTo(
            "p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 100.0 GB/s, floor 124.1 GB/s (measured 5m ago)");
  }

  @Test
  void aHungCallIsUnknownNotFail() {
    Verdict v = judge(a3(165e9, SIO, "timeout"));
    assertThat(v.state()).isEqualTo(State.UNKNOWN);
    assertThat(v.findings()).extracting(Verdict.Finding::code).containsExactly("LW-TIMEOUT");
  }

  @Test
  void aBusyDeviceIsTheAgentsBusinessButLeavesACheckUnknown() {
    JsonObject status = a3(165e9, SIO, "skipped_device_busy");
    assertThat(judge(status).state()).isEqualTo(State.OK);
    Verdict check =
        Verdict.judge(
            doc(status),
            Expectations.of(io.linkwatch.config.ExpectedFigureTable.SHIPPED),
            Verdict.Source.CHECK,
            java.util.List.of());
    assertThat(check.state()).isEqualTo(State.UNKNOWN);
    assertThat(check.findings())
        .extracting(Verdict.Finding::code)
        .containsExactly("LW-DEVICE-BUSY");
    // A finding made elsewhere (the check's lock) comes after the figures' own.
    Verdict more =
        Verdict.judge(
            doc(a3(100e9, SIO, "success")),
            Expectations.of(io.linkwatch.config.ExpectedFigureTable.SHIPPED),
            Verdict.Source.CHECK,
            java.util.List.of(
                new Verdict.Finding("LW-TIMEOUT", State.UNKNOWN, "check quick", "no time left")));
    assertThat(more.state()).isEqualTo(State.FAIL);
    assertThat(more.findings())
        .extracting(Verdict.Finding::code)
        .containsExactly("LW-BELOW-FLOOR", "LW-TIMEOUT");
  }

  @Test
  void nothingToJudgeByIsUnknown() {
    Verdict v = judge(JsonParser.parseString("{\"targets\": []}").getAsJsonObject());
    assertThat(v.state()).isEqualTo(State.UNKNOWN);
    assertThat(v.firstLine("UNKNOWN"))
        .isEqualTo("UNKNOWN - agent: LW-NO-DATA no probe figures or link readings yet");
    assertThat(Verdict.unreachable("http://127.0.0.1:1", "Connection refused").state())
        .isEqualTo(State.UNKNOWN);
  }

  @Test
  void aFailedPassiveReadIsUnknownUnlessSomethingFails() {
    JsonObject status = a3(165e9, SIO, "success");
    status
        .getAsJsonObject("passive")
        .getAsJsonArray("devices")
        .add(
            JsonParser.parseString(
                "{\"source\": \"dcmi\", \"device\": 1, \"result\": \"timeout\","
                    + " \"failed_call\": \"dcmi_get_device_info\", \"links\": []}"));
    Verdict v = judge(status);
    assertThat(v.state()).isEqualTo(State.UNKNOWN);
    assertThat(v.firstLine("UNKNOWN"))
        .isEqualTo("UNKNOWN - dev1 dcmi read: LW-READ-FAILED timeout in dcmi_get_device_info");
  }

  @Test
  void aProductWithoutExpectedFiguresIsJudgedWithoutThemAndSaysSo() {
    JsonObject status = a3(1e9, SIO, "success");
    status
        .getAsJsonArray("targets")
        .forEach(
            t ->
                t.getAsJsonObject()
                    .getAsJsonArray("measurements")
                    .forEach(
                        m -> {
                          if (m.getAsJsonObject().has("name")) {
                            m.getAsJsonObject().addProperty("name", "Ascend910B3");
                          }
                        }));
    Verdict v = judge(status);
    assertThat(v.state()).isEqualTo(State.OK);
    assertThat(v.notes())
        .containsExactly(
            "no expected figures for Ascend910B3: judged on link state, probe health and its own"
                + " alerts only");
  }

  @Test
  void everyShippedFigureNamesItsSourceAndHasItsFailureBeyondItsWarning() {
    assertThat(io.linkwatch.config.ExpectedFigureTable.SHIPPED)
        .allSatisfy(
            f -> {
              assertThat(f.source()).isNotBlank();
              assertThat(f.fail()).isPositive();
              if (f.quantity() == ExpectedFigure.Quantity.BANDWIDTH) {
                assertThat(f.fail()).isLessThan(f.warn());
              } else {
                assertThat(f.fail()).isGreaterThan(f.warn());
              }
            });
  }

  @Test
  void hostTransferAndAllreduceLatencyAreJudgedToo() {
    JsonObject status =
        JsonParser.parseString(
                """
                {"targets": [
                  {"probe": "topology", "target": "dev0", "result": "success", "error": "",
                   "measurements": [{"type": "DeviceInfo", "device": 0, "name": "Ascend910_9382"}]},
                  {"probe": "host_transfer", "target": "dev0/node3", "result": "success",
                   "error": "", "measurements": [
                     {"type": "HostTransferBandwidth", "device": 0, "direction": "h2d",
                      "memory": "pinned", "cpu_node": 3, "mem_node": "3", "size_bytes": 268435456,
                      "bytes_per_second": 30e9},
                     {"type": "HostTransferBandwidth", "device": 0, "direction": "d2h",
                      "memory": "pinned", "cpu_node": 3, "mem_node": "3", "size_bytes": 268435456,
                      "bytes_per_second": 41e9},
                     {"type": "HostTransferBandwidth", "device": 0, "direction": "h2d",
                      "memory": "pageable", "cpu_node": 3, "mem_node": "3", "size_bytes": 268435456,
                      "bytes_per_second": 5e9}]},
                  {"probe": "allreduce", "target": "0,1", "result": "success", "error": "",
                   "measurements": [{"type": "AllreduceLatency", "devices": "0,1",
                     "size_bytes": 1024, "p50_seconds": 310e-6, "p99_seconds": 400e-6}]}]}
                """)
            .getAsJsonObject();
    Verdict v = judge(status);
    assertThat(v.state()).isEqualTo(State.FAIL);
    // Pinned H2D under its floor fails; pinned D2H is as measured; pageable has no row (NUMA
    // dependent); the 1 KiB allreduce is in the latency's warning band.
    assertThat(v.findings())
        .extracting(Verdict.Finding::line)
        .containsExactly(
            "host_transfer dev0/node3 pinned h2d 256MiB: LW-BELOW-FLOOR 30.0 GB/s, floor 46.4 GB/s",
            "allreduce 0,1 1KiB p50: LW-ABOVE-EXPECTED 310 us, expected 300 us");
  }
}
