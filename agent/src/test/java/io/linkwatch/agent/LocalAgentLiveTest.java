package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linkwatch status} with no {@code --url} asks the port the agent on this host really bound:
 * here the config says port 0 (any free one), which the config alone cannot name.
 */
class LocalAgentLiveTest {
  @TempDir Path dir;

  @Test
  void statusFindsTheAgentsRealPortAndNoLongerOnceItStops() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    String config =
        AgentProcess.onlyProbes(
            """
            coordination:
              lock_file: %s
            probes:
              topology:
                every: 1h
                deadline: 30s
            """
                .formatted(run.resolve("probes.lock")));
    Path file = dir.resolve("linkwatch.yaml");
    String url;
    try (AgentProcess agent = AgentProcess.start(dir, config, Map.of())) {
      url = "http://127.0.0.1:" + agent.port();
      assertThat(Files.readString(run.resolve("agent.url"))).startsWith(url + " ");
      JavaProcess.Result r =
          JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--config", file.toString());
      assertThat(r.out()).doesNotContain("LW-NO-AGENT");
      assertThat(r.exit()).as(r.out()).isIn(0, 2);
      // A stop (SIGTERM, as systemd stops it) takes the record away with the agent.
      assertThat(agent.terminate(Duration.ofSeconds(30))).isNotEqualTo(-1);
    }
    assertThat(run.resolve("agent.url")).doesNotExist();
    JavaProcess.Result gone =
        JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--config", file.toString());
    assertThat(gone.out()).contains("LW-NO-AGENT");
  }
}
