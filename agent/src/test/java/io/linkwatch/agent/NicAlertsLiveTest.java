package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.InfinibandTree;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The ports to other servers under a real Prometheus with the shipped rules (windows shortened by
 * {@code grafana/test/live-config.py}), on both sim faces, while a job holds every device the whole
 * time (so no active probe runs: what fires comes from the passive port reads):
 *
 * <ul>
 *   <li>Ascend: each NPU's own RoCE port through the sim's {@code hccn_tool} stand-in. {@code nic 3
 *       down} fires LinkwatchNicPortDown for device 3's port, {@code nic 5 speed 200000} on a
 *       product whose {@code expected_ports} row says 400 Gb/s fires LinkwatchNicSpeedLow, and a
 *       RoCE retry storm on device 1 fires LinkwatchNicErrorRate;
 *   <li>NVIDIA: an HGX H200 host's eight InfiniBand adapters in a sysfs tree, each under its GPU's
 *       PCIe switch, held to gpud's 8 x 400 Gb/s: a port taken down fires LinkwatchNicPortDown
 *       naming the GPU it serves, that port and one trained at 200 Gb/s leave 6 of 8
 *       (LinkwatchNicPortsMissing), and a symbol-error storm fires LinkwatchNicErrorRate;
 * </ul>
 *
 * all within 2 minutes of the fault, and all resolve once it is gone. A second agent with the port
 * source switched off, given the same faults and scraped by its own Prometheus, raises none: the
 * faults are invisible without it.
 */
// Both faces at once: the job keeps every probe off the devices, so the agents only read ports,
// and what the test waits for is alert windows.
@Execution(ExecutionMode.CONCURRENT)
@Order(3)
class NicAlertsLiveTest {
  static final Path HCCS_PROFILE =
      Path.of("..", "native", "profiles", "8x910b-hccs.profile").toAbsolutePath();

  static final List<String> NIC_ALERTS =
      List.of(
          "LinkwatchNicPortDown",
          "LinkwatchNicSpeedLow",
          "LinkwatchNicPortsMissing",
          "LinkwatchNicFlapping",
          "LinkwatchNicErrorRate",
          "LinkwatchNicFatalErrors",
          "LinkwatchNicOpticalPower",
          "LinkwatchNicOpticalBias",
          "LinkwatchNicOpticalSnr",
          "LinkwatchNicNetHealth");

  @TempDir Path dir;

  /** A job on every device, from before the agents start to the end of the test. */
  static List<String> job(int devices, String... faults) {
    List<String> lines = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      lines.add("busy " + d + " pid 4242 util 95 memory 2147483648 traffic 1GB/s");
    }
    lines.addAll(List.of(faults));
    return lines;
  }

  @Test
  void ascendNpuPortDownSlowAndErroringFireDuringAJob() throws Exception {
    String tool = Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool").toString();
    String passive =
        """
        passive:
          interval: 2s
          deadline: 1800ms
          hccn_tool:
            command: %s
            timeout: 600ms
            enabled: %s
        expected_ports:
          - product: Ascend910B
            reader: hccn_tool
            speed: 400Gb/s
        busy:
          retry: 60s
        probes:
          topology:
            every: 1h
            deadline: 30s
        """;
    Map<String, String> env = Map.of("LINKWATCH_SIM_PROFILE", HCCS_PROFILE.toString());
    Live live =
        Live.start(
            dir,
            SimFace.ASCEND,
            AgentProcess.onlyProbes(passive.formatted(tool, "true")),
            AgentProcess.onlyProbes(passive.formatted(tool, "false")),
            env,
            job(8));
    try (live) {
      // the topology has named the product, so the ports are held to its row
      LiveRules.awaitQuery(
          live.prometheus,
          "linkwatch_nic_expected_speed_bytes_per_second{device=\"5\"} == 5e10",
          1,
          Duration.ofSeconds(60));
      live.assertQuietWhileHealthy("linkwatch_nic_transmit_bytes_total{device=\"1\"}");

      long faulted = System.nanoTime();
      live.faults(job(8, "nic 3 down", "nic 5 speed 200000", "nic 1 errors roce_new_pkt_rty 500"));
      assertThat(live.awaitFiring("LinkwatchNicPortDown"))
          .allSatisfy(
              a -> {
                assertThat(label(a, "device")).isEqualTo("3");
                assertThat(label(a, "nic")).isEqualTo("npu3");
              });
      assertThat(live.awaitFiring("LinkwatchNicSpeedLow"))
          .allSatisfy(a -> assertThat(label(a, "device")).isEqualTo("5"));
      assertThat(live.awaitFiring("LinkwatchNicErrorRate"))
          .allSatisfy(a -> assertThat(label(a, "device")).isEqualTo("1"));
      assertThat(Duration.ofNanos(System.nanoTime() - faulted)).isLessThan(Duration.ofMinutes(2));
      live.assertBlindAndNoProbeRan();

      live.faults(job(8));
      live.assertClears();
    }
  }

  @Test
  void nvidiaAdapterPortDownMissingAndErroringFireDuringAJob() throws Exception {
    Path sys = dir.resolve("sys");
    // the sim's H200 profile's GPU addresses: each adapter under its GPU's PCIe switch
    InfinibandTree tree =
        InfinibandTree.hgx(
            sys,
            List.of(
                "0000:18:00.0",
                "0000:2a:00.0",
                "0000:3a:00.0",
                "0000:5d:00.0",
                "0000:9a:00.0",
                "0000:ab:00.0",
                "0000:ba:00.0",
                "0000:db:00.0"));
    String passive =
        """
        paths:
          sysfs: %s
        passive:
          interval: 2s
          deadline: 1800ms
          infiniband:
            enabled: %s
        busy:
          retry: 60s
        probes:
          topology:
            every: 1h
            deadline: 30s
        """;
    Live live =
        Live.start(
            dir,
            SimFace.CUDA,
            AgentProcess.onlyProbes(passive.formatted(sys, "true")),
            AgentProcess.onlyProbes(passive.formatted(sys, "false")),
            Map.of(),
            job(8));
    AtomicBoolean storm = new AtomicBoolean();
    Thread stormer =
        new Thread(
            () -> {
              // 100 symbol errors a second on mlx5_1 while the storm is on
              long errors = 0;
              try {
                while (!Thread.currentThread().isInterrupted()) {
                  if (storm.get()) {
                    errors += 50;
                    tree.counter("mlx5_1", "symbol_error", errors);
                  }
                  Thread.sleep(500);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            },
            "symbol-error-storm");
    stormer.setDaemon(true);
    stormer.start();
    try (live) {
      // gpud's H200 row: 8 ports at 400 Gb/s, and all 8 are
      LiveRules.awaitQuery(
          live.prometheus,
          "linkwatch_nic_ports_at_expected_speed{source=\"infiniband\"} == 8"
              + " and on (instance) linkwatch_nic_expected_ports == 8",
          1,
          Duration.ofSeconds(60));
      live.assertQuietWhileHealthy("linkwatch_nic_up{nic=\"mlx5_7\"}");

      long faulted = System.nanoTime();
      tree.down("mlx5_3");
      tree.rate("mlx5_5", "200 Gb/sec (4X HDR)");
      storm.set(true);
      // the port names the GPU it serves: the one under the same PCIe switch
      assertThat(live.awaitFiring("LinkwatchNicPortDown"))
          .allSatisfy(
              a -> {
                assertThat(label(a, "nic")).isEqualTo("mlx5_3");
                assertThat(label(a, "device")).isEqualTo("3");
              });
      JsonNode missing = live.awaitFiring("LinkwatchNicPortsMissing");
      assertThat(missing).hasSize(1);
      assertThat(label(missing.get(0), "source")).isEqualTo("infiniband");
      assertThat(missing.get(0).get("annotations").get("summary").asText())
          .contains("has 6 of its infiniband ports");
      assertThat(live.awaitFiring("LinkwatchNicErrorRate"))
          .allSatisfy(a -> assertThat(label(a, "nic")).isEqualTo("mlx5_1"));
      assertThat(Duration.ofNanos(System.nanoTime() - faulted)).isLessThan(Duration.ofMinutes(2));
      live.assertBlindAndNoProbeRan();

      storm.set(false);
      tree.up("mlx5_3");
      tree.rate("mlx5_5", "400 Gb/sec (4X NDR)");
      live.assertClears();
    } finally {
      stormer.interrupt();
    }
  }

  private static String label(JsonNode alert, String name) {
    return alert.get("labels").path(name).asText();
  }

  /** Two agents on the same faults, one of them blind to ports, each under its own Prometheus. */
  private record Live(
      AgentProcess agent,
      AgentProcess blind,
      PrometheusServer prometheus,
      PrometheusServer blindProm,
      int devices)
      implements AutoCloseable {

    static Live start(
        Path dir,
        SimFace face,
        String config,
        String blindConfig,
        Map<String, String> env,
        List<String> job)
        throws Exception {
      Path on = Files.createDirectories(dir.resolve("on"));
      Path off = Files.createDirectories(dir.resolve("off"));
      Path rules = LiveRules.write(dir);
      // the job holds the devices from before the agents start: no probe ever gets to measure
      SimControl.write(SimControl.forProcess(on), job.toArray(String[]::new));
      SimControl.write(SimControl.forProcess(off), job.toArray(String[]::new));
      List<AutoCloseable> started = new ArrayList<>();
      try {
        AgentProcess agent = AgentProcess.start(on, face, config, env);
        started.add(agent);
        AgentProcess blind = AgentProcess.start(off, face, blindConfig, env);
        started.add(blind);
        PrometheusServer prometheus = PrometheusServer.start(on, agent.port(), "1s", rules);
        started.add(prometheus);
        PrometheusServer blindProm = PrometheusServer.start(off, blind.port(), "1s", rules);
        return new Live(agent, blind, prometheus, blindProm, job.size());
      } catch (Exception e) {
        for (AutoCloseable c : started) {
          c.close();
        }
        throw e;
      }
    }

    void faults(List<String> lines) {
      agent.faults(lines.toArray(String[]::new));
      blind.faults(lines.toArray(String[]::new));
    }

    /** The ports are read while the job runs, and no port alert is pending or firing. */
    void assertQuietWhileHealthy(String series) throws Exception {
      LiveRules.awaitQuery(prometheus, series, 1, Duration.ofSeconds(60));
      Thread.sleep(12_000);
      assertThat(nicAlerts(prometheus)).as("port alerts while healthy").isEmpty();
    }

    /** The agent that does not read ports saw the same faults and raises nothing. */
    void assertBlindAndNoProbeRan() throws Exception {
      assertThat(nicAlerts(blindProm)).as("port alerts with the port source off").isEmpty();
      assertThat(blindProm.query("linkwatch_nic_up")).isEmpty();
      assertThat(prometheus.query("linkwatch_probe_runs_total{result=\"success\"} > 0"))
          .as("successful probe runs during the job (the topology needs no idle device)")
          .allSatisfy(s -> assertThat(s.get("metric").get("probe").asText()).isEqualTo("topology"));
    }

    void assertClears() throws Exception {
      long clearBy = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      List<String> left = nicAlerts(prometheus);
      while (!left.isEmpty() && System.nanoTime() < clearBy) {
        Thread.sleep(1000);
        left = nicAlerts(prometheus);
      }
      assertThat(left).as("port alerts after the faults clear").isEmpty();
    }

    JsonNode awaitFiring(String name) throws Exception {
      return LiveRules.awaitFiring(prometheus, name, Duration.ofSeconds(120));
    }

    private static List<String> nicAlerts(PrometheusServer p) throws Exception {
      List<String> out = new ArrayList<>();
      for (JsonNode a : p.alerts()) {
        if (NIC_ALERTS.contains(a.get("labels").get("alertname").asText())) {
          out.add(LiveRules.name(a));
        }
      }
      return out;
    }

    @Override
    public void close() {
      for (AutoCloseable c : List.<AutoCloseable>of(blindProm, prometheus, blind, agent)) {
        try {
          c.close();
        } catch (Exception e) {
          // the others still close
        }
      }
    }
  }
}
