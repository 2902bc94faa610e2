package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.LiveRules;
import io.linkwatch.testing.PrometheusServer;
import io.linkwatch.testing.SimControl;
import io.linkwatch.testing.SimFace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Passive watching while a job holds every device, under a real Prometheus with the shipped rules
 * (windows shortened by {@code grafana/test/live-config.py}), on both sim faces. The job keeps the
 * active probes off the devices for the whole test, so what fires comes from the passive reads:
 *
 * <ul>
 *   <li>a link degraded mid-job (an HCCS port downtrained to 2 of 4 lanes on Ascend, an NVLink down
 *       on NVIDIA) fires its alert within 2 minutes, and a CRC storm on another link fires
 *       LinkwatchLinkErrorRate; both resolve after the faults clear;
 *   <li>a second agent with passive watching off, scraped by its own Prometheus and given the same
 *       faults at the same time, raises neither: the faults are invisible without it.
 * </ul>
 */
// Its two faces run at once, and beside other tests (agent/pom.xml): the job keeps every probe off
// the devices, so its agents only read counters, and what it waits for is alert windows.
@Execution(ExecutionMode.CONCURRENT)
@Order(2)
class PassiveAlertsLiveTest {
  static final Path HCCS_PROFILE =
      Path.of("..", "native", "profiles", "8x910b-hccs.profile").toAbsolutePath();

  static final List<String> PASSIVE_ALERTS =
      List.of(
          "LinkwatchLinkDown",
          "LinkwatchLinkDowntrained",
          "LinkwatchLinkErrorRate",
          "LinkwatchPcieLinkDegraded",
          "LinkwatchPcieAerUncorrectable",
          "LinkwatchPcieAerCorrectableRate",
          "LinkwatchPcieReplays",
          "LinkwatchPassiveReadFailing");

  @TempDir Path dir;

  static String config(boolean passive) {
    return (passive
            ? "passive:\n  interval: 2s\n  deadline: 1500ms\n"
            : "passive:\n  enabled: false\n")
        + "busy:\n  retry: 60s\n"
        + "probes:\n  p2p:\n    every: 20s\n    deadline: 15s\n    sizes: [16MiB]\n"
        + "    warmup: 1\n    iterations: 3\n";
  }

  /** A job on every device: processes DCMI/NVML list, high utilization, link traffic. */
  static List<String> job(int devices) {
    return IntStream.range(0, devices)
        .mapToObj(d -> "busy " + d + " pid 4242 util 95 memory 2147483648 traffic 4GB/s")
        .collect(Collectors.toList());
  }

  @Test
  void ascendDowntrainedPortAndCrcStormFireDuringAJob() throws Exception {
    run(
        SimFace.ASCEND,
        8,
        Map.of("LINKWATCH_SIM_PROFILE", HCCS_PROFILE.toString()),
        List.of("hccs 0 3 lanes 2", "hccs 1 2 crc 50"),
        "LinkwatchLinkDowntrained",
        "0",
        "3",
        "1",
        "2");
  }

  @Test
  void nvidiaDownLinkAndCrcStormFireDuringAJob() throws Exception {
    run(
        SimFace.CUDA,
        8,
        Map.of(),
        List.of("nvlink 0 3 down", "nvlink 1 2 crc-flit 50"),
        "LinkwatchLinkDown",
        "0",
        "3",
        "1",
        "2");
  }

  private void run(
      SimFace face,
      int devices,
      Map<String, String> env,
      List<String> faults,
      String stateAlert,
      String stateDevice,
      String stateLink,
      String errorDevice,
      String errorLink)
      throws Exception {
    Path on = Files.createDirectories(dir.resolve("on"));
    Path off = Files.createDirectories(dir.resolve("off"));
    Path rules = LiveRules.write(dir);
    // The job holds the devices from before the agents start: no probe ever gets to measure.
    List<String> job = job(devices);
    SimControl.write(SimControl.forProcess(on), job.toArray(String[]::new));
    SimControl.write(SimControl.forProcess(off), job.toArray(String[]::new));
    try (AgentProcess agent =
            AgentProcess.start(on, face, AgentProcess.onlyProbes(config(true)), env);
        AgentProcess blind =
            AgentProcess.start(off, face, AgentProcess.onlyProbes(config(false)), env);
        PrometheusServer prometheus = PrometheusServer.start(on, agent.port(), "1s", rules);
        PrometheusServer blindProm = PrometheusServer.start(off, blind.port(), "1s", rules)) {

      // The job's traffic shows on the links while no probe can run.
      LiveRules.awaitQuery(
          prometheus,
          "rate(linkwatch_link_transmit_bytes_total{device=\"" + errorDevice + "\"}[10s]) > 0",
          1,
          Duration.ofSeconds(60));
      Thread.sleep(15_000);
      assertThat(passiveAlerts(prometheus)).as("passive alerts while healthy").isEmpty();

      List<String> withFaults = new ArrayList<>(job);
      withFaults.addAll(faults);
      long faulted = System.nanoTime();
      agent.faults(withFaults.toArray(String[]::new));
      blind.faults(withFaults.toArray(String[]::new));

      JsonNode state = LiveRules.awaitFiring(prometheus, stateAlert, Duration.ofSeconds(120));
      assertThat(state)
          .allSatisfy(
              a -> {
                assertThat(a.get("labels").get("device").asText()).isEqualTo(stateDevice);
                assertThat(a.get("labels").get("link").asText()).isEqualTo(stateLink);
              });
      JsonNode errors =
          LiveRules.awaitFiring(prometheus, "LinkwatchLinkErrorRate", Duration.ofSeconds(120));
      assertThat(errors)
          .allSatisfy(
              a -> {
                assertThat(a.get("labels").get("device").asText()).isEqualTo(errorDevice);
                assertThat(a.get("labels").get("link").asText()).isEqualTo(errorLink);
              });
      assertThat(Duration.ofNanos(System.nanoTime() - faulted)).isLessThan(Duration.ofMinutes(2));

      // No active probe measured anything: the devices were busy the whole time.
      assertThat(
              prometheus.query("linkwatch_probe_runs_total{probe=\"p2p\",result=\"success\"} > 0"))
          .as("successful p2p runs during the job")
          .isEmpty();
      // The same faults on the agent that does not watch passively: nothing to alert on.
      assertThat(passiveAlerts(blindProm)).as("alerts with passive watching off").isEmpty();
      assertThat(blindProm.query("linkwatch_link_up")).isEmpty();

      agent.faults(job.toArray(String[]::new));
      long clearBy = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      List<String> left = passiveAlerts(prometheus);
      while (!left.isEmpty() && System.nanoTime() < clearBy) {
        Thread.sleep(1000);
        left = passiveAlerts(prometheus);
      }
      assertThat(left).as("passive alerts after the faults clear").isEmpty();
    }
  }

  private static List<String> passiveAlerts(PrometheusServer p) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode a : p.alerts()) {
      if (PASSIVE_ALERTS.contains(a.get("labels").get("alertname").asText())) {
        out.add(a.get("labels").get("alertname").asText() + a.get("labels"));
      }
    }
    return out;
  }
}
