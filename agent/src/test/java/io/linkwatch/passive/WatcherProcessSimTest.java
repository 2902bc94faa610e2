package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.testing.JavaProcess;
import io.linkwatch.testing.SimControl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watcher process as the agent runs it, on the sim's Ascend face (8 x 910B with HCCS between
 * every pair, and the built-in A3 with SIO only) and its CUDA face (8 x H200 into NVSwitches): what
 * a round reads, what it leaves out, and what a hung or crashing library call becomes.
 */
class WatcherProcessSimTest {
  static final Path HCCS_PROFILE =
      Path.of("..", "native", "profiles", "8x910b-hccs.profile").toAbsolutePath();
  static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path dir;
  private WatcherProcess watcher;

  private Path control() {
    return dir.resolve("sim-control");
  }

  private WatcherProcess start(Backend backend, Path profile) {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("LINKWATCH_SIM_CONTROL", control().toString());
    if (profile != null) {
      env.put("LINKWATCH_SIM_PROFILE", profile.toString());
    }
    watcher = new WatcherProcess(WatcherProcess.defaultCommand(backend, List.of()), env);
    return watcher;
  }

  @AfterEach
  void stop() {
    if (watcher != null) {
      watcher.close();
    }
  }

  private static LinkReading link(WatchRound round, int device, String link) {
    return round.readings().stream()
        .filter(r -> r.device() == device)
        .flatMap(r -> r.links().stream())
        .filter(l -> l.link().equals(link))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void everyHccsPortIsReadWithItsPeerLanesAndCounters() {
    WatchRound round = start(Backend.SIM, HCCS_PROFILE).round(List.of(), DEADLINE).round();
    assertThat(round.devices()).isEqualTo(8);
    assertThat(round.readings()).hasSize(8).allSatisfy(r -> assertThat(r.failed()).isFalse());
    DeviceLinks d1 = round.readings().get(1);
    assertThat(d1.links())
        .extracting(LinkReading::link, LinkReading::peer)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("1", "0"),
            org.assertj.core.groups.Tuple.tuple("2", "2"),
            org.assertj.core.groups.Tuple.tuple("3", "3"),
            org.assertj.core.groups.Tuple.tuple("4", "4"),
            org.assertj.core.groups.Tuple.tuple("5", "5"),
            org.assertj.core.groups.Tuple.tuple("6", "6"),
            org.assertj.core.groups.Tuple.tuple("7", "7"));
    assertThat(d1.links())
        .allSatisfy(
            l -> {
              assertThat(l.up()).isTrue();
              assertThat(l.lanes()).isEqualTo(4);
              assertThat(l.lanesMax()).isEqualTo(4);
              assertThat(l.counterBits()).isEqualTo(64);
              assertThat(l.trafficUnitBytes()).isEqualTo(20);
              assertThat(l.errors()).containsOnlyKeys("crc", "retry");
            });
    assertThat(d1.pciAddress()).isEqualTo("0000:02:00.0");
  }

  @Test
  void downtrainingADownPortAndAnErrorRateShowInTheNextRound() throws Exception {
    start(Backend.SIM, HCCS_PROFILE).round(List.of(), DEADLINE);
    SimControl.write(control(), "hccs 0 3 lanes 2 crc 200", "hccs 5 2 down");
    Thread.sleep(300);
    WatchRound first = watcher.round(List.of(), DEADLINE).round();
    Thread.sleep(1000);
    WatchRound second = watcher.round(List.of(), DEADLINE).round();
    assertThat(link(second, 0, "3").lanes()).isEqualTo(2);
    assertThat(link(second, 0, "3").up()).isTrue();
    assertThat(link(second, 0, "4").lanes()).isEqualTo(4);
    assertThat(link(second, 5, "2").up()).isFalse();
    long grew = link(second, 0, "3").errors().get("crc") - link(first, 0, "3").errors().get("crc");
    assertThat(grew).isBetween(100L, 600L); // ~200/s over the second between the rounds
    assertThat(link(second, 0, "4").errors().get("crc")).isZero();
  }

  @Test
  void theNpuPortsAreReadThroughDcmiWhenAskedAndACallTheProductLacksIsNotAskedAgain()
      throws Exception {
    SimControl.write(control(), "nic 1 errors roce_out_of_order 1000");
    WatchRound linksOnly = start(Backend.SIM, null).round(List.of(), DEADLINE).round();
    assertThat(linksOnly.readings()).allSatisfy(r -> assertThat(r.npuPort()).isNull());

    DeviceLinks one = device(watcher.round(List.of(), true, DEADLINE).round(), 1);
    assertThat(one.failed()).isFalse();
    assertThat(one.npuPort().address()).isEqualTo("192.168.100.11");
    assertThat(one.npuPort().counters())
        .containsKeys("roce_err_psn_num", "nic_tx_all_oct_num", "roce_new_pkt_rty_num")
        .hasSize(48);
    // the health call, which may block, is never made: the tool reads the health
    SimControl.write(control(), "hang dcmi_get_device_network_health");
    Thread.sleep(300);
    assertThat(watcher.round(List.of(), true, Duration.ofSeconds(5)).round()).isNotNull();

    // a product without the counters call: listed once, never asked again, the address still read
    SimControl.write(control(), "fail dcmi_get_netdev_pkt_stats_info -8255");
    Thread.sleep(300);
    DeviceLinks lacking = device(watcher.round(List.of(), true, DEADLINE).round(), 1);
    assertThat(lacking.failed()).isFalse();
    assertThat(lacking.npuPort().counters()).isNull();
    assertThat(lacking.npuPort().address()).isNotNull();
    assertThat(lacking.unsupported())
        .containsOnlyOnce(
            "dcmi_get_netdev_pkt_stats_info returned -8255: not supported on this device");
    // a failure that may pass: only this round's part is missing, and the links are read
    SimControl.write(control(), "fail dcmi_get_device_ip -8005");
    Thread.sleep(300);
    DeviceLinks failing = device(watcher.round(List.of(), true, DEADLINE).round(), 1);
    assertThat(failing.failed()).isFalse();
    assertThat(failing.npuPort()).isNull(); // neither part: no reading at all
    assertThat(failing.unsupported()).noneMatch(u -> u.startsWith("dcmi_get_device_ip"));
    SimControl.write(control(), "");
    Thread.sleep(300);
    assertThat(device(watcher.round(List.of(), true, DEADLINE).round(), 1).npuPort().address())
        .isEqualTo("192.168.100.11");
  }

  private static DeviceLinks device(WatchRound round, int device) {
    return round.readings().stream().filter(r -> r.device() == device).findFirst().orElseThrow();
  }

  @Test
  void devicesAnActiveProbeMeasuresAreNotRead() {
    WatchRound round = start(Backend.SIM, HCCS_PROFILE).round(List.of(0, 3), DEADLINE).round();
    assertThat(round.readings()).extracting(DeviceLinks::device).containsExactly(1, 2, 4, 5, 6, 7);
  }

  @Test
  void aHungReadIsNamedAndTheNextRoundHasAFreshWatcher() throws Exception {
    start(Backend.SIM, HCCS_PROFILE).round(List.of(), DEADLINE);
    long before = watcher.pid();
    SimControl.write(control(), "hang dcmi_get_device_info");
    WatcherProcess.Outcome hung = watcher.round(List.of(), Duration.ofSeconds(3));
    assertThat(hung.result()).isEqualTo("timeout");
    assertThat(hung.call()).isEqualTo("dcmi_get_device_info");
    assertThat(hung.error())
        .startsWith("timeout in dcmi_get_device_info (device 0) after ")
        .contains("the read round passed its deadline of 3s and the watcher was killed");
    assertThat(watcher.pid()).isEqualTo(-1);
    SimControl.write(control(), "");
    WatcherProcess.Outcome back = watcher.round(List.of(), DEADLINE);
    assertThat(back.result()).isEqualTo("success");
    assertThat(back.round().readings()).hasSize(8);
    assertThat(watcher.pid()).isPositive().isNotEqualTo(before);
  }

  @Test
  void aWatcherThatDiesBetweenRoundsIsReportedAndTheNextRoundHasAFreshOne() throws Exception {
    start(Backend.SIM, HCCS_PROFILE).round(List.of(), DEADLINE);
    long first = watcher.pid();
    ProcessHandle h = ProcessHandle.of(first).orElseThrow();
    h.destroyForcibly();
    h.onExit().get();
    WatcherProcess.Outcome died = watcher.round(List.of(), DEADLINE);
    assertThat(died.result()).isEqualTo("error");
    assertThat(died.error()).startsWith("watcher died");
    assertThat(died.error()).contains("signal 9");
    WatcherProcess.Outcome back = watcher.round(List.of(), DEADLINE);
    assertThat(back.result()).isEqualTo("success");
    assertThat(watcher.pid()).isPositive().isNotEqualTo(first);
    // both watchers' CPU is counted, and two were started
    assertThat(watcher.footprint().starts()).isEqualTo(2);
    assertThat(watcher.footprint().cpuSecondsTotal()).isPositive();
  }

  @Test
  void aCrashingReadIsNamedWithItsSignal() throws Exception {
    start(Backend.SIM, HCCS_PROFILE).round(List.of(), DEADLINE);
    SimControl.write(control(), "crash dcmi_get_device_info:56:0", "crash dcmi_get_device_info");
    WatcherProcess.Outcome died = watcher.round(List.of(), DEADLINE);
    assertThat(died.result()).isEqualTo("error");
    assertThat(died.call()).isEqualTo("dcmi_get_device_info");
    assertThat(died.error())
        .startsWith(
            "watcher died with signal 6 (exit status 134) in dcmi_get_device_info (device 0)");
    SimControl.write(control(), "");
    assertThat(watcher.round(List.of(), DEADLINE).result()).isEqualTo("success");
  }

  @Test
  void anUnsupportedCommandGetsNoReadingAndTheNarrowerOneIsUsed() throws Exception {
    SimControl.write(control(), "fail dcmi_get_device_info:16:5 -8255");
    WatchRound round = start(Backend.SIM, HCCS_PROFILE).round(List.of(), DEADLINE).round();
    DeviceLinks d0 = round.readings().get(0);
    assertThat(d0.failed()).isFalse();
    assertThat(d0.unsupported())
        .singleElement()
        .asString()
        .contains("HCCS statistics u64, main 16 sub 5")
        .contains("-8255: not supported on this device");
    assertThat(d0.links()).allSatisfy(l -> assertThat(l.counterBits()).isEqualTo(32));
  }

  @Test
  void theA3DiesHaveSioCrcCountersAndNoHccs() throws Exception {
    SimControl.write(control(), "sio 1 crc-rx 500");
    WatchRound round = start(Backend.SIM, null).round(List.of(), DEADLINE).round();
    Thread.sleep(500);
    round = watcher.round(List.of(), DEADLINE).round();
    assertThat(round.devices()).isEqualTo(2);
    DeviceLinks d1 = round.readings().get(1);
    assertThat(d1.links())
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.linkType()).isEqualTo("SIO");
              assertThat(l.peer()).isEqualTo("0");
              assertThat(l.up()).isNull();
              assertThat(l.counterBits()).isEqualTo(16);
              assertThat(l.errors().get("crc_rx")).isPositive();
              assertThat(l.errors().get("crc_tx")).isZero();
            });
    assertThat(d1.unsupported()).anySatisfy(u -> assertThat(u).contains("HCCS lanes"));
  }

  @Test
  void nvlinksIntoNvswitchesWithStateErrorsAndPcieReplays() throws Exception {
    SimControl.write(control(), "nvlink 2 5 down", "nvlink 2 6 replay 300", "pcie 2 replay 100");
    WatchRound round = start(Backend.SIM_CUDA, null).round(List.of(), DEADLINE).round();
    Thread.sleep(500);
    round = watcher.round(List.of(), DEADLINE).round();
    DeviceLinks d2 = round.readings().get(2);
    assertThat(d2.failed()).as(d2.error()).isFalse();
    assertThat(d2.links())
        .hasSize(18)
        .allSatisfy(
            l -> {
              assertThat(l.linkType()).isEqualTo("NVLINK");
              assertThat(l.peer()).isEqualTo("nvswitch");
              assertThat(l.errors()).containsOnlyKeys("retry", "recovery", "crc_flit", "crc_data");
              assertThat(l.trafficUnitBytes()).isEqualTo(1024);
            });
    assertThat(link(round, 2, "5").up()).isFalse();
    assertThat(link(round, 2, "4").up()).isTrue();
    assertThat(link(round, 2, "6").errors().get("retry")).isPositive();
    assertThat(link(round, 2, "7").errors().get("retry")).isZero();
    assertThat(d2.pcieReplays()).isPositive();
    assertThat(round.readings().get(3).pcieReplays()).isZero();
  }

  private static final Pattern GBPS = Pattern.compile("(\\d+\\.\\d+)");

  /**
   * The downtrained port also slows what an active probe measures over it, so the two agree: the
   * pair that port 3 of device 0 carries (0->3) measures about half of an untouched pair (0->4).
   */
  @Test
  void anActiveProbeAgreesWithADowntrainedPort() throws Exception {
    SimControl.write(control(), "hccs 0 3 lanes 2");
    JavaProcess.Result r =
        JavaProcess.run(
            Map.of(
                "LINKWATCH_SIM_CONTROL", control().toString(),
                "LINKWATCH_SIM_PROFILE", HCCS_PROFILE.toString()),
            Duration.ofSeconds(120),
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "64MiB",
            "--pairs",
            "0->3,0->4",
            "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    com.fasterxml.jackson.databind.JsonNode json =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
    double slow = Double.NaN;
    double healthy = Double.NaN;
    for (com.fasterxml.jackson.databind.JsonNode t : json.get("targets")) {
      double bw = t.get("measurements").get(0).get("bytes_per_second").asDouble();
      if (t.get("target").asText().equals("0->3")) {
        slow = bw;
      } else {
        healthy = bw;
      }
    }
    assertThat(slow / healthy).as("0->3 over 0->4").isBetween(0.4, 0.6);
  }
}
