package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.LiveRules;
import io.linkwatch.testing.PrometheusServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The agent on the sim under a real Prometheus that loads the shipped alert rules (with their
 * windows shortened by {@code grafana/test/live-config.py}): healthy scrapes raise no alert; a
 * degraded link 0->1 raises the link alert for that pair only; restoring it clears the alert.
 */
@Execution(ExecutionMode.CONCURRENT)
@Order(4)
class PrometheusLiveTest {
  static final String CONFIG =
      """
      probes:
        p2p:
          # Room for a worker start and 128 MiB copies on a 2-core CI machine that also runs
          # FleetLiveTest's agents: LinkwatchProbeStale (rightly) pends after 3 intervals
          # without a success, and at 8s/7s three runs in a row once missed their deadline.
          every: 12s
          deadline: 11s
          # Large enough that bandwidth, not the 0.21 ms latency, sets the time: at 0.6x the
          # link, 128 MiB copies measure ~0.66x, clearly under the rule's 0.8.
          sizes: [128MiB]
          warmup: 1
          iterations: 3
        topology:
          every: 30s
          deadline: 20s
      """;

  private static final String STALE = "LinkwatchProbeStale";
  private static final String FAILING = "LinkwatchProbeFailing";

  /** The highest count of unsuccessful p2p runs seen, and when it was first seen. */
  private double lastUnsuccessful;

  private long lastUnsuccessfulAt;

  @TempDir Path dir;

  @Test
  void degradedLinkAlertsForThatPairOnlyAndClears() throws Exception {
    Path rules = LiveRules.write(dir);

    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), Map.of());
        PrometheusServer prometheus = PrometheusServer.start(dir, agent.port(), "1s", rules)) {
      // The query API serves the agent's p2p series.
      JsonNode series =
          LiveRules.awaitQuery(
              prometheus, "linkwatch_p2p_bandwidth_bytes_per_second", 2, Duration.ofSeconds(90));
      assertThat(series)
          .extracting(s -> s.get("metric").get("link_type").asText())
          .containsOnly("SIO");

      // A Prometheus that has not scraped yet rightly holds LinkwatchAgentDown pending
      // (absent(up));
      // it must resolve once the agent is scraped.
      long settle = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!LiveRules.names(prometheus.alerts()).isEmpty() && System.nanoTime() < settle) {
        Thread.sleep(500);
      }
      // Healthy: no alert at all while the baselines fill (the shortened "first hour" and more).
      long healthyUntil = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (System.nanoTime() < healthyUntil) {
        assertThat(unexplained(LiveRules.names(prometheus.alerts()), agent))
            .as(() -> "alerts during healthy running; agent's runs and log:\n" + runsAndLog(agent))
            .isEmpty();
        Thread.sleep(2000);
      }

      agent.faults("link 0 1 scale 0.6");
      JsonNode linkAlerts =
          LiveRules.awaitAlert(prometheus, "LinkwatchLinkBandwidthLow", Duration.ofSeconds(90));
      assertThat(linkAlerts)
          .allSatisfy(
              a -> {
                assertThat(a.get("labels").get("src").asText()).isEqualTo("0");
                assertThat(a.get("labels").get("dst").asText()).isEqualTo("1");
              });
      for (JsonNode a : prometheus.alerts()) {
        String name = a.get("labels").get("alertname").asText();
        if (unexplained(List.of(LiveRules.name(a)), agent).isEmpty()) {
          continue; // see unexplained()
        }
        assertThat(name)
            .as("only link alerts fire")
            .isIn("LinkwatchLinkBandwidthLow", "LinkwatchLinkAsymmetric");
        assertThat(a.get("labels").get("src").asText() + "->" + a.get("labels").get("dst").asText())
            .isEqualTo("0->1");
      }

      agent.faults();
      long clearBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      List<String> left = unexplained(LiveRules.names(prometheus.alerts()), agent);
      while (!left.isEmpty() && System.nanoTime() < clearBy) {
        Thread.sleep(1000);
        left = unexplained(LiveRules.names(prometheus.alerts()), agent);
      }
      assertThat(left).as("alerts after the link is restored").isEmpty();
    }
  }

  /**
   * The alerts that the test cannot explain. A machine too loaded to finish p2p runs within their
   * deadline (FleetLiveTest's eight agents share the two cores) rightly makes LinkwatchProbeStale
   * and LinkwatchProbeFailing pend. Those two are explained, but only within a minute (more than
   * three 12 s intervals plus the rules' shortened 30 s window) of the agent counting a p2p run
   * that did not succeed: one that stays after the runs succeed again is not.
   */
  private List<String> unexplained(List<String> alerts, AgentProcess agent) throws Exception {
    double unsuccessful = unsuccessfulP2pRuns(agent);
    long now = System.nanoTime();
    if (unsuccessful > lastUnsuccessful) {
      lastUnsuccessful = unsuccessful;
      lastUnsuccessfulAt = now;
    }
    boolean recent =
        lastUnsuccessful > 0 && now - lastUnsuccessfulAt < Duration.ofSeconds(60).toNanos();
    return alerts.stream()
        .filter(a -> !(recent && (a.startsWith(STALE + "{") || a.startsWith(FAILING + "{"))))
        .toList();
  }

  /** p2p runs counted with a result other than success (timeout, error, skipped_*). */
  private static double unsuccessfulP2pRuns(AgentProcess agent) throws Exception {
    return agent
        .metrics()
        .lines()
        .filter(l -> l.startsWith("linkwatch_probe_runs_total{") && l.contains("probe=\"p2p\""))
        .filter(l -> !l.contains("result=\"success\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** What a failed assertion shows: the agent's run counters and the end of its log. */
  private static String runsAndLog(AgentProcess agent) {
    StringBuilder out = new StringBuilder();
    try {
      agent
          .metrics()
          .lines()
          .filter(l -> l.startsWith("linkwatch_probe_runs_total{"))
          .forEach(l -> out.append(l).append('\n'));
    } catch (Exception e) {
      out.append("(no metrics: ").append(e).append(")\n");
    }
    List<String> log = agent.log();
    log.subList(Math.max(0, log.size() - 40), log.size()).forEach(l -> out.append(l).append('\n'));
    return out.toString();
  }
}
