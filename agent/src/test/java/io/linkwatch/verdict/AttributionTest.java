package io.linkwatch.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import io.linkwatch.verdict.Verdict.Finding;
import io.linkwatch.verdict.Verdict.State;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The culprit named from a round of p2p figures on eight HCCS-linked devices (the {@code
 * 8x910b-hccs} sim's shape, 56 GB/s a link), with and without an expected row for the product, and
 * the patterns one cause does not explain left as figures.
 */
class AttributionTest {
  static final long SIZE = 256L << 20;
  static final double LINK = 56e9;

  /** A row for the product: fails under 80 %, warns under 90 % of 56 GB/s. */
  static final List<ExpectedFigure> ROW =
      List.of(
          new ExpectedFigure(
              "Ascend910B",
              "HCCS",
              "p2p",
              SIZE,
              SIZE,
              ExpectedFigure.Quantity.BANDWIDTH,
              0.8 * LINK,
              0.9 * LINK,
              "test row"));

  /** Eight devices' inventory and every ordered pair's figure from {@code bandwidth}. */
  static StatusDocument round(BiFunction<Integer, Integer, Double> bandwidth) {
    List<TargetEntry> targets = new ArrayList<>();
    for (int d = 0; d < 8; d++) {
      targets.add(
          target(
              "topology", "dev" + d, new DeviceInfo(d, "Ascend910B3", d, d, "", 64L << 30, null)));
    }
    for (int s = 0; s < 8; s++) {
      for (int d = 0; d < 8; d++) {
        if (s != d) {
          double bps = bandwidth.apply(s, d);
          targets.add(
              target("p2p", s + "->" + d, new P2pBandwidth(s, d, "HCCS", SIZE, bps, SIZE / bps)));
        }
      }
    }
    return new StatusDocument(
        StatusDocument.SCHEMA_VERSION, targets, List.of(), null, null, null, null, null, null);
  }

  static TargetEntry target(String probe, String target, Measurement m) {
    return new TargetEntry(
        probe, target, Outcome.SUCCESS, "", null, 0.1, null, null, null, List.of(m), null, null);
  }

  static List<Finding> culprits(Verdict v) {
    return v.findings().stream()
        .filter(f -> !f.code().startsWith("LW-BELOW") && !f.code().startsWith("LW-ABOVE"))
        .toList();
  }

  @Test
  void oneDeviceSlowOnAllItsLinksIsTheDevice() {
    Verdict v = Verdict.judge(round((s, d) -> s == 3 || d == 3 ? 0.5 * LINK : LINK), ROW);
    assertThat(v.state()).isEqualTo(State.FAIL);
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("device 3");
    assertThat(v.firstLine("FAIL")).startsWith("FAIL - device 3: LW-DEVICE-SLOW all 14 of its");
    assertThat(v.findings().get(0).detail()).contains("% of the floor").contains("28.0 GB/s");
    // Its 14 figures stay as the evidence, after it.
    assertThat(v.findings()).hasSize(15);
    // What to do comes from the actions table, not from the evidence.
    Expectations withActions =
        new Expectations(
            ROW,
            List.of(),
            io.linkwatch.config.ConfigLoader.parse("f.yaml", "").findingActionTable());
    assertThat(
            Verdict.judge(
                    round((s, d) -> s == 3 || d == 3 ? 0.5 * LINK : LINK),
                    withActions,
                    Verdict.Source.AGENT,
                    List.of())
                .findings()
                .get(0)
                .action())
        .startsWith("reset the device");
  }

  @Test
  void oneLinkSlowBothWaysIsTheLinkNotEitherDevice() {
    Verdict v =
        Verdict.judge(
            round((s, d) -> (s == 0 && d == 3) || (s == 3 && d == 0) ? 0.6 * LINK : LINK), ROW);
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("link 0<->3");
    assertThat(v.firstLine("FAIL")).startsWith("FAIL - link 0<->3: LW-LINK-SLOW both directions");
  }

  /**
   * One direction low, its reverse and the devices' other pairs fine: that direction of the link (a
   * lane, a retimer), named first; its figure's own finding stays as the evidence.
   */
  @Test
  void oneDirectionOnlyIsThatDirectionOfTheLink() {
    Verdict v = Verdict.judge(round((s, d) -> s == 2 && d == 5 ? 0.6 * LINK : LINK), ROW);
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("link 2->5");
    assertThat(v.firstLine("FAIL"))
        .startsWith("FAIL - link 2->5: LW-LINK-ONEWAY one direction low (75 % of the floor), 5->2");
    assertThat(v.findings()).extracting(Finding::code).contains("LW-BELOW-FLOOR");
    // Without a row, against its peers: the same, as a warning.
    Verdict peers = Verdict.judge(round((s, d) -> s == 2 && d == 5 ? 0.6 * LINK : LINK), List.of());
    assertThat(peers.state()).isEqualTo(State.WARN);
    assertThat(culprits(peers)).extracting(Finding::subject).containsExactly("link 2->5");
  }

  /** Devices 2 and 3 fine between themselves and half as fast to every other device, both ways. */
  static StatusDocument behindOneSwitch(double scale) {
    return round((s, d) -> (s == 2 || s == 3) != (d == 2 || d == 3) ? scale * LINK : LINK);
  }

  /**
   * Two devices under one PCIe switch slow to everything outside it: the switch, named by its
   * address from the PCIe tree the watcher read, not twelve links or either device.
   */
  @Test
  void twoDevicesSlowToEveryOtherAreTheSwitchAboveThem() throws Exception {
    StatusDocument round = behindOneSwitch(0.5);
    Verdict bare = Verdict.judge(round, ROW);
    assertThat(culprits(bare)).extracting(Finding::subject).containsExactly("devices 2, 3");
    assertThat(bare.firstLine("FAIL"))
        .startsWith("FAIL - devices 2, 3: LW-PCIE-SLOW devices 2, 3 fine among themselves, all 24");
    // With the tree: 2 and 3 under switch port 0000:3a:00.0, the others under other ports, all
    // under one root port.
    Verdict named = Verdict.judge(withPcie(round), ROW);
    assertThat(culprits(named)).extracting(Finding::subject).containsExactly("pcie 0000:3a:00.0");
    assertThat(named.findings().get(0).detail()).contains(": the switch above them");
    assertThat(named.findings().get(0).scope())
        .isEqualTo(new Verdict.Scope(Subsystem.PCIE, List.of(2, 3)));
    // What the group explains, the links would have named one by one.
    assertThat(named.findings()).extracting(Finding::code).doesNotContain("LW-LINK-SLOW");
  }

  /** Two halves fine within themselves and slow across: the path between them, not 16 links. */
  @Test
  void twoHalvesSlowAcrossAreThePathBetweenThem() {
    Verdict v = Verdict.judge(round((s, d) -> (s < 4) != (d < 4) ? 0.5 * LINK : LINK), ROW);
    assertThat(culprits(v))
        .extracting(Finding::subject)
        .containsExactly("between devices 0, 1, 2, 3 and 4, 5, 6, 7");
    assertThat(v.findings()).extracting(Finding::code).doesNotContain("LW-LINK-SLOW");
  }

  /** The round's document with a PCIe tree: 2 and 3 under one switch port, each other alone. */
  static StatusDocument withPcie(StatusDocument round) throws Exception {
    com.google.gson.JsonObject doc =
        com.google.gson.JsonParser.parseString(io.linkwatch.status.StatusCodec.encode(round))
            .getAsJsonObject();
    StringBuilder devices = new StringBuilder();
    for (int d = 0; d < 8; d++) {
      String bridge = d == 2 || d == 3 ? "0000:3a:00.0" : String.format("0000:%02x:00.0", 0x40 + d);
      devices
          .append(d == 0 ? "" : ",")
          .append(
              """
              {"source": "sysfs", "device": %d, "result": "success", "pcie": [
                {"pci_address": "0000:%02x:00.0", "role": "device", "width": 16, "max_width": 16},
                {"pci_address": "%s", "role": "bridge", "width": 16, "max_width": 16},
                {"pci_address": "0000:00:01.0", "role": "root_port", "width": 16, "max_width": 16}]}
              """
                  .formatted(d, 0x80 + d, bridge));
    }
    doc.add("passive", com.google.gson.JsonParser.parseString("{\"devices\": [" + devices + "]}"));
    return io.linkwatch.status.StatusCodec.read(doc.toString());
  }

  @Test
  void everyPairLowIsTheHostNotADevice() {
    Verdict v = Verdict.judge(round((s, d) -> 0.5 * LINK), ROW);
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("host");
    assertThat(v.firstLine("FAIL")).startsWith("FAIL - host: LW-HOST-WIDE all 56 pairs low");
  }

  @Test
  void aHealthyHostNamesNothing() {
    Verdict v = Verdict.judge(round((s, d) -> LINK * (0.97 + 0.01 * ((s + d) % 3))), ROW);
    assertThat(v.state()).isEqualTo(State.OK);
    assertThat(v.findings()).isEmpty();
  }

  /**
   * Without a row for the product the host's own peers are the reference: the device that is slow
   * on every pair is still named, as a warning (the product's figure is unknown); before, the same
   * round was "OK: no expected figures".
   */
  @Test
  void withoutARowTheDevicesPeersAreTheReference() {
    StatusDocument slow = round((s, d) -> s == 6 || d == 6 ? 0.5 * LINK : LINK);
    Verdict v = Verdict.judge(slow, List.of());
    assertThat(v.state()).isEqualTo(State.WARN);
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("device 6");
    assertThat(v.findings().get(0).detail()).contains("50 % of its peers' median");
    // Noise of a few percent between pairs is no finding, and every pair low cannot be told
    // from the peers: no false alarm either way.
    assertThat(
            Verdict.judge(round((s, d) -> LINK * (0.9 + 0.02 * ((s * 3 + d) % 5))), List.of())
                .state())
        .isEqualTo(State.OK);
    assertThat(Verdict.judge(round((s, d) -> 0.5 * LINK), List.of()).state()).isEqualTo(State.OK);
  }

  /**
   * Two devices and one link, both directions low (an A3's two dies): the link, either die and the
   * host cannot be told apart, so nothing is named and the figures speak for themselves.
   */
  @Test
  void aPairWithNoOtherPairsNamesNoCulprit() {
    List<TargetEntry> targets = new ArrayList<>();
    for (int d = 0; d < 2; d++) {
      targets.add(
          target(
              "topology", "dev" + d, new DeviceInfo(d, "Ascend910B3", d, d, "", 64L << 30, null)));
    }
    targets.add(target("p2p", "0->1", new P2pBandwidth(0, 1, "HCCS", SIZE, 0.5 * LINK, 0.01)));
    targets.add(target("p2p", "1->0", new P2pBandwidth(1, 0, "HCCS", SIZE, 0.5 * LINK, 0.01)));
    Verdict v =
        Verdict.judge(
            new StatusDocument(
                StatusDocument.SCHEMA_VERSION,
                targets,
                List.of(),
                null,
                null,
                null,
                null,
                null,
                null),
            ROW);
    assertThat(culprits(v)).isEmpty();
    assertThat(v.firstLine("FAIL")).startsWith("FAIL - p2p 0->1 HCCS 256MiB: LW-BELOW-FLOOR");
  }

  /** Two devices both slow everywhere: each is named, and their shared link is not named again. */
  @Test
  void twoSlowDevicesAreBothNamed() {
    Verdict v =
        Verdict.judge(
            round((s, d) -> s == 1 || d == 1 || s == 4 || d == 4 ? 0.5 * LINK : LINK), ROW);
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("device 1", "device 4");
  }

  /** Eight devices' pinned h2d copies from memory on each of {@code nodes} NUMA nodes. */
  static StatusDocument hostTransfers(int nodes, BiFunction<Integer, Integer, Double> bandwidth) {
    List<TargetEntry> targets = new ArrayList<>();
    for (int d = 0; d < 8; d++) {
      for (int n = 0; n < nodes; n++) {
        targets.add(
            target(
                "host_transfer",
                "dev" + d + "/node" + n,
                new io.linkwatch.probe.hosttransfer.HostTransferBandwidth(
                    d,
                    "h2d",
                    "pinned",
                    n,
                    String.valueOf(n),
                    SIZE,
                    bandwidth.apply(d, n),
                    "move_pages",
                    "aclrtMallocHost")));
      }
    }
    return new StatusDocument(
        StatusDocument.SCHEMA_VERSION, targets, List.of(), null, null, null, null, null, null);
  }

  /**
   * Host transfers slow from one NUMA node only, to every device, and fine to the same devices from
   * the other: the node, not the devices; nothing is named where the node cannot be told.
   */
  @Test
  void hostTransfersSlowFromOneNodeOnlyAreThatNode() {
    Verdict v = Verdict.judge(hostTransfers(2, (d, n) -> n == 1 ? 12e9 : 24e9), List.of());
    assertThat(culprits(v)).extracting(Finding::subject).containsExactly("numa_node 1");
    assertThat(v.firstLine("WARN"))
        .startsWith("WARN - numa_node 1: LW-NUMA-SLOW pinned h2d from node 1 low to all 8 devices");
    // Every node low: the node cannot be told from the host; one node only: nothing to compare.
    assertThat(numaNamed(hostTransfers(2, (d, n) -> 12e9))).isEmpty();
    assertThat(numaNamed(hostTransfers(1, (d, n) -> d == 0 ? 12e9 : 24e9))).isEmpty();
    // One device slow from both nodes is not a node.
    assertThat(numaNamed(hostTransfers(2, (d, n) -> d == 5 ? 12e9 : 24e9))).isEmpty();
  }

  private static List<String> numaNamed(StatusDocument round) {
    return Verdict.judge(round, List.of()).findings().stream()
        .filter(f -> f.code().equals("LW-NUMA-SLOW"))
        .map(Finding::subject)
        .toList();
  }

  /** A culprit's evidence quotes the counters of its devices' links read in the same window. */
  @Test
  void aCulpritQuotesTheLinkCountersOfItsDevices() throws Exception {
    com.google.gson.JsonObject doc =
        com.google.gson.JsonParser.parseString(
                io.linkwatch.status.StatusCodec.encode(
                    round((s, d) -> s == 3 || d == 3 ? 0.5 * LINK : LINK)))
            .getAsJsonObject();
    doc.add(
        "passive",
        com.google.gson.JsonParser.parseString(
            """
            {"devices": [{"source": "dcmi", "device": 3, "result": "success", "links": [
              {"link": "5", "link_type": "HCCS", "peer": "5", "up": true,
               "errors": {"crc": 900}, "errors_per_second": 9.0}]}]}
            """));
    Verdict v = Verdict.judge(io.linkwatch.status.StatusCodec.read(doc.toString()), ROW);
    Finding device = culprits(v).get(0);
    assertThat(device.subject()).isEqualTo("device 3");
    assertThat(device.detail())
        .endsWith(
            "; backed by dev3 HCCS link 5 (to 5): LW-LINK-ERRORS 9.0 errors/s, threshold 1/s");
    // Without the counters, the figures alone.
    assertThat(
            culprits(Verdict.judge(round((s, d) -> s == 3 || d == 3 ? 0.5 * LINK : LINK), ROW))
                .get(0)
                .detail())
        .doesNotContain("backed by");
  }
}
