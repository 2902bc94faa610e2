package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.StatusLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running agent reading the ports to other servers from a sysfs tree (the Prometheus procfs
 * project's InfiniBand fixture, copied so a port can be taken down): the ports' series on {@code
 * /metrics}, then a port going down fails the verdict, naming it, and comes back.
 */
class NicPortLiveTest {
  static final Path FIXTURE = Path.of("src/test/resources/fixtures/procfs-infiniband/sys");

  @TempDir Path dir;

  private static String await(String url, String prefix) throws Exception {
    return StatusLine.await(url, prefix, Duration.ofSeconds(30));
  }

  @Test
  void aPortThatGoesDownFailsTheVerdictAndItsSeriesSayIt() throws Exception {
    Path sys = dir.resolve("sys");
    try (Stream<Path> files = Files.walk(FIXTURE)) {
      for (Path f : files.toList()) {
        Path to = sys.resolve(FIXTURE.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    String config =
        AgentProcess.onlyProbes(
            """
            paths:
              sysfs: %s
            passive:
              interval: 1s
              deadline: 800ms
            probes:
              topology:
                every: 1h
                deadline: 30s
            """
                .formatted(sys));
    try (AgentProcess agent = AgentProcess.start(dir, config, Map.of())) {
      String url = "http://127.0.0.1:" + agent.port();
      String up = "linkwatch_nic_up{link_layer=\"InfiniBand\",nic=\"mlx5_0\",port=\"1\"} 1.0";
      String metrics =
          agent.awaitMetrics(
              Duration.ofSeconds(60),
              up,
              "linkwatch_nic_speed_bytes_per_second{nic=\"mlx4_0\",port=\"2\"} 5.0E9",
              "linkwatch_nic_receive_bytes_total{nic=\"hfi1_0\",port=\"1\"} 1.380366808104E12",
              "linkwatch_nic_errors_total{kind=\"local_ack_timeout_err\",nic=\"mlx5_0\",port=\"1\"}"
                  + " 131.0");
      assertThat(metrics).contains("linkwatch_nic_was_up{nic=\"mlx5_0\",port=\"1\"} 1.0");
      assertThat(await(url, "OK - ")).startsWith("OK - ");

      Path state = sys.resolve("class/infiniband/mlx5_0/ports/1/state");
      Files.writeString(state, "1: DOWN\n");
      assertThat(await(url, "FAIL - "))
          .startsWith("FAIL - nic mlx5_0 port 1: LW-NIC-DOWN down (DOWN, ACTIVE) after being up");
      agent.awaitMetrics(
          Duration.ofSeconds(30),
          "linkwatch_nic_up{link_layer=\"InfiniBand\",nic=\"mlx5_0\",port=\"1\"} 0.0");
      JsonNode ports =
          io.linkwatch.testing.JsonTrees.MAPPER
              .readTree(agent.get("/api/v1/status").body())
              .get("passive")
              .get("nic_ports");
      assertThat(ports).hasSize(4);
      assertThat(ports.get(3).get("state").asText()).isEqualTo("DOWN");
      assertThat(ports.get(3).get("was_up").asBoolean()).isTrue();
      // The page's table of ports marks it, and names the others as they are.
      String page = agent.get("/").body();
      assertThat(page)
          .contains("<h2>Ports to other servers (InfiniBand, RoCE)</h2>")
          .contains("<td>mlx5_0<td>1<td>InfiniBand<td class=\"cell low\">DOWN (was up)")
          .contains("<td>mlx4_0<td>2<td>InfiniBand<td>ACTIVE<td>LinkUp<td>40 Gb/s");

      Files.writeString(state, "4: ACTIVE\n");
      assertThat(await(url, "OK - ")).startsWith("OK - ");
    }
  }
}
