package io.linkwatch.agent;

import static io.linkwatch.testing.Exposition.value;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.ProcStatus;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A counter read that hangs in the driver: {@code /metrics} keeps answering, the status names the
 * call, the active probes go on measuring, and the watcher is back once the hang clears.
 */
class PassiveHangLiveTest {
  static final String CONFIG =
      """
      passive:
        interval: 2s
        deadline: 1s
      probes:
        p2p:
          every: 4s
          deadline: 3s
          sizes: [16MiB]
          warmup: 1
          iterations: 3
      """;

  static final Pattern P2P_OK =
      Pattern.compile(
          "(?m)^linkwatch_probe_runs_total\\{probe=\"p2p\",result=\"success\",target=\"0->1\"\\}"
              + " (\\S+)$");

  @TempDir Path dir;

  private static double p2pSuccesses(String metrics) {
    Matcher m = P2P_OK.matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  /**
   * The pid of the {@code n}-th watcher the agent started, from its log line. The line is relayed
   * from the agent's output by a thread of its own, so it may arrive after the watcher's first
   * reads are on {@code /metrics}: waited for, up to 10 s.
   */
  private static long watcherPid(AgentProcess agent, int n) throws InterruptedException {
    Pattern started = Pattern.compile("passive watcher started \\(pid (\\d+)\\)");
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    List<Long> pids = new ArrayList<>();
    while (true) {
      pids.clear();
      for (String line : agent.log()) {
        Matcher m = started.matcher(line);
        if (m.find()) {
          pids.add(Long.parseLong(m.group(1)));
        }
      }
      if (pids.size() >= n || System.nanoTime() > end) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(pids).as("watcher start lines in the agent's log").hasSizeGreaterThanOrEqualTo(n);
    return pids.get(n - 1);
  }

  private static JsonNode dcmi(AgentProcess agent, int device) throws Exception {
    JsonNode status = new ObjectMapper().readTree(agent.get("/api/v1/status").body());
    for (JsonNode d : status.get("passive").get("devices")) {
      if (d.get("source").asText().equals("dcmi") && d.get("device").asInt() == device) {
        return d;
      }
    }
    return null;
  }

  @Test
  void aHungCounterReadIsNamedWhileMetricsAndProbesCarryOn() throws Exception {
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), Map.of())) {
      agent.awaitMetrics(
          Duration.ofSeconds(60),
          "linkwatch_passive_read_success{device=\"0\",source=\"dcmi\"} 1.0",
          "linkwatch_link_errors_total{device=\"0\",kind=\"crc_tx\",link=\"0\",link_type=\"SIO\"");

      // the watcher's own cost is on /metrics, and is the watcher's: its RSS as /proc gives it
      String first = agent.metrics();
      long pid = watcherPid(agent, 1);
      assertThat(value(first, "linkwatch_passive_watcher_starts_total")).isEqualTo(1);
      double rss = value(first, "linkwatch_passive_watcher_resident_memory_bytes");
      assertThat(rss).isBetween(4.0 * (1 << 20), 1024.0 * (1 << 20));
      assertThat(rss / ProcStatus.rssBytes(pid)).isBetween(0.5, 2.0);
      assertThat(value(first, "linkwatch_passive_watcher_cpu_seconds_total")).isPositive();

      agent.faults("hang dcmi_get_device_info");
      agent.awaitMetrics(
          Duration.ofSeconds(30),
          "linkwatch_passive_read_success{device=\"0\",source=\"dcmi\"} 0.0",
          "linkwatch_passive_failed_call_info{call=\"dcmi_get_device_info\",device=\"0\","
              + "source=\"dcmi\"} 1");
      JsonNode hung = dcmi(agent, 0);
      assertThat(hung.get("result").asText()).isEqualTo("timeout");
      assertThat(hung.get("failed_call").asText()).isEqualTo("dcmi_get_device_info");
      assertThat(hung.get("error").asText())
          .startsWith("timeout in dcmi_get_device_info (device 0) after ");
      // The link series of a failed read are gone, not left stale.
      assertThat(agent.metrics()).doesNotContain("linkwatch_link_errors_total{device=\"0\"");

      // While every read round hangs: scrapes answer at once and the p2p probe measures.
      double before = p2pSuccesses(agent.metrics());
      long until = System.nanoTime() + Duration.ofSeconds(12).toNanos();
      while (System.nanoTime() < until) {
        long t = System.nanoTime();
        HttpResponse<String> r = agent.get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - t)).isLessThan(Duration.ofSeconds(2));
        Thread.sleep(500);
      }
      assertThat(p2pSuccesses(agent.metrics()))
          .as("p2p runs that succeeded while the counter reads hung")
          .isGreaterThan(before);
      assertThat(dcmi(agent, 0).get("result").asText()).isEqualTo("timeout");

      agent.faults();
      agent.awaitMetrics(
          Duration.ofSeconds(30),
          "linkwatch_passive_read_success{device=\"0\",source=\"dcmi\"} 1.0",
          "linkwatch_link_errors_total{device=\"0\",kind=\"crc_tx\",link=\"0\",link_type=\"SIO\"");
      assertThat(dcmi(agent, 0).get("result").asText()).isEqualTo("success");
      String back = agent.metrics();
      assertThat(back).doesNotContain("linkwatch_passive_failed_call_info");
      // each hung round killed its watcher: the starts count it, the CPU of the killed ones stays
      assertThat(value(back, "linkwatch_passive_watcher_starts_total")).isGreaterThanOrEqualTo(2);
      assertThat(value(back, "linkwatch_passive_watcher_cpu_seconds_total"))
          .isGreaterThan(value(first, "linkwatch_passive_watcher_cpu_seconds_total"));
      assertThat(back).contains("linkwatch_passive_watcher_resident_memory_bytes ");
    }
  }
}
