package io.linkwatch.passive.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The parsers on real {@code hccn_tool} output (MindCluster's fixture, an old driver) and on the
 * shapes the reference quotes from newer drivers, with what an operator reads off the same text.
 */
class HccnToolTextTest {
  static final Path FIXTURE = Path.of("src/test/resources/fixtures/hccn-tool/npu_info_before.txt");
  static Map<String, String> printed;

  /** The fixture cut into what each {@code hccn_tool} command line printed, by that line. */
  @BeforeAll
  static void cut() throws IOException {
    printed = new LinkedHashMap<>();
    String command = null;
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(FIXTURE)) {
      boolean isCommand = line.startsWith("/usr/local/") || line.startsWith("lspci");
      if (isCommand) {
        if (command != null) {
          printed.put(command, String.join("\n", out));
        }
        command =
            line.startsWith("/usr/local/Ascend/driver/tools/hccn_tool ")
                ? line.substring("/usr/local/Ascend/driver/tools/hccn_tool ".length())
                : line;
        out = new ArrayList<>();
      } else if (command != null) {
        out.add(line);
      }
    }
    printed.put(command, String.join("\n", out));
  }

  @Test
  void theFixtureHoldsEveryCommandThisTestReads() {
    assertThat(printed)
        .containsKeys(
            "-i 0 -stat -g",
            "-i 0 -link_stat -g",
            "-i 0 -net_health -g",
            "-i 0 -optical -g",
            "-i 0 -ip -g",
            "-i 2 -ip -g");
  }

  @Test
  void statisticsAreTheCountersUnderPacketStatistics() {
    assertThat(HccnToolText.statistics(printed.get("-i 0 -stat -g")))
        .containsExactly(
            Map.entry("roce_rx_err_pkt_num", 0L), Map.entry("roce_tx_err_pkt_num", 0L));
    // the shape NPU-Exporter's parser documents for a newer driver, counters past 2^31 included
    assertThat(
            HccnToolText.statistics(
                "packet statistics:\nmac_tx_mac_pause_num:0\nnic_tx_all_pkg_num:122404\n"
                    + "nic_rx_all_oct_num:482237805\nroce_qp_status_err_num:3\n"
                    + "nic_tx_all_oct_num:18446744073709551615\n"))
        .containsEntry("nic_tx_all_pkg_num", 122404L)
        .containsEntry("nic_rx_all_oct_num", 482237805L)
        .containsEntry("roce_qp_status_err_num", 3L)
        .containsEntry("nic_tx_all_oct_num", -1L) // unsigned 2^64-1, carried as Java's long bits
        .doesNotContainKey("packet statistics");
  }

  @Test
  void linkUpCountReadsBothDriversPrefixes() {
    assertThat(HccnToolText.linkUpCount(printed.get("-i 0 -link_stat -g"))).hasValue(2);
    assertThat(
            HccnToolText.linkUpCount(
                "[device 0]current time        : Wed Jun  7 10:08:28 2023\n"
                    + "[device 0]link up count       : 7\n"
                    + "[device 0]link change records :\n"
                    + "[device 0]    Tue Jun  6 16:32:12 2023    LINK UP\n"))
        .hasValue(7);
    assertThat(HccnToolText.linkUpCount("hccn_tool is busy, please try again")).isEmpty();
  }

  @Test
  void netHealthKeepsTheDriversNameForTheOldSpelling() {
    assertThat(HccnToolText.netHealth(printed.get("-i 0 -net_health -g"))).hasValue("Socket fail");
    assertThat(HccnToolText.netHealth("net health status: Success")).hasValue("Success");
    assertThat(HccnToolText.netHealth("net health status: Detect ip set"))
        .hasValue("Detect ip set");
    assertThat(NetHealth.healthy("Socket fail")).isFalse();
    assertThat(NetHealth.healthy("Init")).isTrue();
    assertThat(NetHealth.label("Socket fail")).isEqualTo("socket_fail");
  }

  @Test
  void opticsAreReadInBaseUnitsAndUnsupportedLanesAreNamed() {
    Optics o = HccnToolText.optics(printed.get("-i 0 -optical -g")).orElseThrow();
    assertThat(o.present()).isEqualTo("not present");
    assertThat(o.temperatureCelsius()).isEqualTo(47.0);
    assertThat(o.supplyVolts()).isCloseTo(3.2629, within(1e-9));
    assertThat(o.txPowerWatts()).containsOnlyKeys(0, 1, 2, 3);
    assertThat(o.txPowerWatts().get(0)).isCloseTo(4.4035e-3, within(1e-12));
    assertThat(o.rxPowerWatts().get(0)).isCloseTo(1.0189e-3, within(1e-12));
    // lane 1 receives almost nothing: the reading an operator looks for, under Huawei's 0.1445 mW
    assertThat(o.rxPowerWatts().get(1)).isCloseTo(0.0054e-3, within(1e-12));
    assertThat(o.biasAmperes().get(0)).isCloseTo(7.936e-3, within(1e-12));
    assertThat(o.biasAmperes().get(3)).isCloseTo(7.924e-3, within(1e-12));
    assertThat(o.hostSnrDecibels()).isEmpty();
    assertThat(o.mediaSnrDecibels()).containsEntry(0, 23.1211).containsEntry(3, 23.2969);
    assertThat(o.unsupported())
        .containsExactly("Host SNR Lane0", "Host SNR Lane1", "Host SNR Lane2", "Host SNR Lane3");
    // the module's thresholds are not readings: four lanes of each, nothing more
    assertThat(o.rxPowerWatts()).hasSize(4);
  }

  @Test
  void opticsInDbmAreWatts() {
    Optics o =
        HccnToolText.optics(
                "optical info:\nTxPower Lane0(dBm) : 0.00\nRxPower Lane1(dBm) : -10.00\n")
            .orElseThrow();
    assertThat(o.txPowerWatts().get(0)).isCloseTo(1e-3, within(1e-12));
    assertThat(o.rxPowerWatts().get(1)).isCloseTo(1e-4, within(1e-12));
    assertThat(HccnToolText.optics("optical info:\nTx Power0 : NA\n").orElseThrow().unsupported())
        .containsExactly("Tx Power0");
    assertThat(HccnToolText.optics("")).isEmpty();
  }

  @Test
  void addressIsTheIpaddrLineAndAbsentWhenNothingWasPrinted() {
    assertThat(HccnToolText.ipAddress(printed.get("-i 0 -ip -g"))).hasValue("192.161.200.10");
    assertThat(HccnToolText.ipAddress(printed.get("-i 1 -ip -g"))).hasValue("192.161.201.10");
    assertThat(HccnToolText.ipAddress(printed.get("-i 2 -ip -g"))).isEmpty();
  }

  @Test
  void linkAndSpeedReadTheQuotedShapes() {
    assertThat(HccnToolText.linkUp("link status: UP")).hasValue(true);
    assertThat(HccnToolText.linkUp("link status: DOWN")).hasValue(false);
    assertThat(HccnToolText.linkUp("hccn_tool is busy, please try again")).isEmpty();
    assertThat(HccnToolText.speedBitsPerSecond("Speed: 100000 Mb/s")).hasValue(100e9);
    assertThat(HccnToolText.speedBitsPerSecond("Speed: Unknown!")).isEmpty();
  }

  @Test
  void lldpGivesTheSwitchAndItsPort() {
    // the shape MindCluster's toolkit test feeds its parser
    NicPort.Neighbour n =
        HccnToolText.lldpNeighbour(
                "LLDP Information\nPort ID TLV\n  Ifname: eth0\nSystem Name TLV\n  switch-01")
            .orElseThrow();
    assertThat(n.system()).isEqualTo("switch-01");
    assertThat(n.port()).isEqualTo("eth0");
    assertThat(
            HccnToolText.lldpNeighbour("Port ID TLV\n\tIfname: 400GE1/1/5:1\n")
                .orElseThrow()
                .port())
        .isEqualTo("400GE1/1/5:1");
    assertThat(HccnToolText.lldpNeighbour("")).isEmpty();
  }

  @Test
  void pingCountsTheEchoesAndTheirRoundTrips() {
    HccnToolText.Ping whole =
        HccnToolText.ping(
                "device 0 PING 10.10.100.10\n"
                    + "recv seq=0,time=0.067000ms\n"
                    + "recv seq=1,time=0.055000ms\n"
                    + "recv seq=2,time=0.061000ms\n"
                    + "3 packets transmitted, 3 received, 0.00% packet loss\n")
            .orElseThrow();
    assertThat(whole.sent()).isEqualTo(3);
    assertThat(whole.received()).isEqualTo(3);
    assertThat(whole.rttSeconds()).containsExactly(67e-6, 55e-6, 61e-6);

    HccnToolText.Ping lossy =
        HccnToolText.ping(
                "device 0 PING 10.10.100.10\n"
                    + "recv time out seq=0\n"
                    + "recv seq=1,time=0.055000ms\n"
                    + "recv seq=2,time=0.061000ms\n"
                    + "3 packets transmitted, 2 received, 33.33% packet loss\n")
            .orElseThrow();
    assertThat(lossy.received()).isEqualTo(2);
    assertThat(lossy.rttSeconds()).hasSize(2);

    assertThat(HccnToolText.ping("device 0 PING 10.10.100.10\nrecv seq=0,time=0.067000ms\n"))
        .as("no summary: the ping did not finish")
        .isEmpty();
    assertThat(
            HccnToolText.ping(
                    "recv seq=0,time=1.2.3ms\n1 packets transmitted, 1 received, 0.00% packet loss")
                .orElseThrow()
                .rttSeconds())
        .as("a time of another shape is no time, and no failure")
        .isEmpty();
    assertThat(HccnToolText.ping("1 packets transmitted, 2 received, 0.00% packet loss"))
        .as("more received than sent")
        .isEmpty();
  }
}
