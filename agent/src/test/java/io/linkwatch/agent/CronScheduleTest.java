package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JsonTrees;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A probe on a daily cron schedule still runs once right after start, then waits for its time. */
class CronScheduleTest {
  @TempDir Path dir;

  @Test
  void aCronProbeRunsOnceAtStartAndReportsItsDailyInterval() throws Exception {
    String config =
        """
        probes:
          p2p:
            cron: "0 0 3 * * ?"
            sizes: [1MiB]
            warmup: 0
            iterations: 2
        """;
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of())) {
      String text =
          agent.awaitMetrics(
              Duration.ofSeconds(20),
              "linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 1.0",
              "linkwatch_probe_interval_seconds{probe=\"p2p\"} 86400.0");
      assertThat(text)
          .contains(
              "linkwatch_probe_runs_total{probe=\"p2p\",result=\"success\",target=\"0->1\"} 1.0");
      JsonNode status = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
      Instant next = Instant.parse(status.get("next_runs").get("p2p").asText());
      assertThat(next).isAfter(Instant.now()).isBefore(Instant.now().plus(Duration.ofHours(25)));
      // Quartz reads cron in the JVM's time zone, which the agent shares with this test.
      assertThat(next.atZone(java.time.ZoneId.systemDefault()).toLocalTime())
          .isEqualTo(java.time.LocalTime.of(3, 0));
    }
  }
}
