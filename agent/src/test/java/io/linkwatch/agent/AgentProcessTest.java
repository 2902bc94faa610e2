package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.Promtool;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent as operators run it: a child process on the sim, scraped over loopback HTTP, with
 * faults injected into the sim while it runs. The tests share one agent and run in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentProcessTest {
  static final Duration DEADLINE = Duration.ofSeconds(4);
  static final String CONFIG =
      """
      probes:
        p2p:
          every: 6s
          deadline: 4s
          sizes: [4MiB]
          warmup: 1
          iterations: 3
        topology:
          every: 1m
          deadline: 20s
      """;

  @TempDir static Path dir;
  static AgentProcess agent;

  @BeforeAll
  static void start() throws Exception {
    agent = AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), Map.of());
  }

  @AfterAll
  static void stop() {
    if (agent != null) {
      agent.close();
    }
  }

  @Test
  @Order(1)
  void firstResultsWithinSecondsAndPromtoolClean() throws Exception {
    String text =
        agent.awaitMetrics(
            Duration.ofSeconds(15),
            "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"1\",link_type=\"SIO\",size_bytes=\"4194304\",src=\"0\"}",
            "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"0\",link_type=\"SIO\",size_bytes=\"4194304\",src=\"1\"}",
            "linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 1.0",
            "linkwatch_probe_success{probe=\"p2p\",target=\"1->0\"} 1.0");
    assertThat(text).contains("linkwatch_build_info{backend=\"sim\",version=");
    assertThat(text).contains("linkwatch_probe_interval_seconds{probe=\"p2p\"} 6.0");
    // The agent's own footprint, beside what it measures.
    assertThat(text)
        .containsPattern("(?m)^process_resident_memory_bytes \\d")
        .containsPattern("(?m)^process_open_fds \\d")
        .containsPattern("(?m)^process_cpu_seconds_total \\d")
        .contains("jvm_memory_used_bytes{area=\"heap\"}", "jvm_threads_current ");
    Promtool.assertCleanMetrics(text);
    assertThat(agent.log())
        .anySatisfy(
            l ->
                assertThat(l)
                    .matches(
                        // The time first when not under journald (JOURNAL_STREAM unset).
                        (System.getenv("JOURNAL_STREAM") == null
                                ? "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S+ "
                                : "")
                            + "INFO  ProbeExecutor: probe=p2p target=0->1 result=success duration=\\d+\\.\\d\\ds 0->1 4MiB \\d+\\.\\dGB/s SIO"));
  }

  @Test
  @Order(2)
  void httpEndpoints() throws Exception {
    HttpResponse<String> health = agent.get("/healthz");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ok\n");
    assertThat(agent.get("/").body()).contains("<a href=\"/metrics\">");
    assertThat(agent.get("/nope").statusCode()).isEqualTo(404);
    assertThat(agent.send("POST", "/metrics").statusCode()).isEqualTo(405);
    assertThat(agent.send("DELETE", "/healthz").statusCode()).isEqualTo(405);

    HttpResponse<String> plain = agent.get("/metrics");
    assertThat(plain.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");

    HttpResponse<String> om =
        agent.get("/metrics", "Accept", "application/openmetrics-text; version=1.0.0");
    assertThat(om.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/openmetrics-text");
    assertThat(om.body()).endsWith("# EOF\n");

    HttpResponse<byte[]> gz = agent.getBytes("/metrics", "Accept-Encoding", "gzip");
    assertThat(gz.headers().firstValue("Content-Encoding")).contains("gzip");
    String unzipped =
        new String(
            new GZIPInputStream(new ByteArrayInputStream(gz.body())).readAllBytes(),
            StandardCharsets.UTF_8);
    assertThat(unzipped).contains("linkwatch_build_info");

    JsonNode status = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
    JsonNode first = status.get("targets").get(0);
    assertThat(first.get("probe").asText()).isNotEmpty();
    assertThat(status.get("next_runs").has("p2p")).isTrue();
    assertThat(status.toString())
        .contains("\"target\":\"0->1\"", "\"result\":\"success\"", "\"last_success\":\"20");
  }

  /**
   * A hung driver: the run is killed at its deadline and counted as a timeout, while /metrics keeps
   * answering fast; without the fault the next run succeeds.
   */
  @Test
  @Order(3)
  void aHangBecomesATimeoutAndMetricsStayFast() throws Exception {
    agent.faults("hang aclrtSynchronizeStream");
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    long slowest = 0;
    int requests = 0;
    String text = "";
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      text = agent.metrics();
      long took = System.nanoTime() - t0;
      requests++;
      if (requests > 1) {
        slowest = Math.max(slowest, took);
      }
      if (text.contains(
          "linkwatch_probe_runs_total{probe=\"p2p\",result=\"timeout\",target=\"0->1\"}")) {
        break;
      }
      Thread.sleep(50);
    }
    assertThat(text)
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"timeout\",target=\"0->1\"} 1.0");
    assertThat(text).contains("linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 0.0");
    assertThat(text).doesNotContain("linkwatch_p2p_bandwidth_bytes_per_second{");
    assertThat(requests).isGreaterThan(20);
    assertThat(slowest).as("slowest /metrics answer during the hang, ns").isLessThan(100_000_000L);
    double duration = durationOf(text, "0->1");
    assertThat(duration).isBetween(DEADLINE.toSeconds() - 0.5, DEADLINE.toSeconds() + 5.0);
    // Where it hung, in all three places an operator looks.
    assertThat(text)
        .contains(
            "linkwatch_probe_failed_call_info{call=\"aclrtSynchronizeStream\",probe=\"p2p\",target=\"0->1\"} 1");
    assertThat(errorOf("p2p", "0->1"))
        .startsWith("timeout in aclrtSynchronizeStream (device 0) after ");
    // The log reaches the test through a pipe: it may trail the scrape.
    agent.awaitLog(
        Duration.ofSeconds(10), "WARN  WorkerProcess: probe=p2p timeout in aclrtSynchronizeStream");

    agent.faults();
    agent.awaitMetrics(
        Duration.ofSeconds(20), "linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 1.0");
  }

  @Test
  @Order(4)
  void aCrashIsAnErrorAndTheAgentLives() throws Exception {
    agent.faults("crash aclrtMemcpyAsync");
    String text =
        agent.awaitMetrics(
            Duration.ofSeconds(20),
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"error\",target=\"0->1\"}");
    assertThat(text).contains("linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 0.0");
    assertThat(errorOf("p2p", "0->1"))
        .startsWith("worker died with signal 6 (exit status 134) in aclrtMemcpyAsync (device 0)")
        .endsWith("linkwatch-sim: injected crash in aclrtMemcpyAsync");
    assertThat(agent.metrics())
        .contains(
            "linkwatch_probe_failed_call_info{call=\"aclrtMemcpyAsync\",probe=\"p2p\",target=\"0->1\"} 1");
    assertThat(agent.get("/healthz").statusCode()).isEqualTo(200);
    assertThat(agent.log()).anySatisfy(l -> assertThat(l).contains("worker p2p:"));
    agent.faults();
    agent.awaitMetrics(
        Duration.ofSeconds(20), "linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 1.0");
  }

  /**
   * A run that cannot even initialize AscendCL knows no targets; the known ones go to 0 with its
   * error instead of vanishing behind a series named after the probe.
   */
  @Test
  @Order(5)
  void aFailedInitMarksTheKnownTargetsFailed() throws Exception {
    agent.faults("fail aclInit 507899");
    String text =
        agent.awaitMetrics(
            Duration.ofSeconds(20),
            "linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 0.0",
            "linkwatch_probe_success{probe=\"p2p\",target=\"1->0\"} 0.0");
    assertThat(text).doesNotContain("target=\"p2p\"");
    assertThat(text)
        .contains(
            "linkwatch_probe_failed_call_info{call=\"aclInit\",probe=\"p2p\",target=\"1->0\"} 1");
    assertThat(errorOf("p2p", "1->0")).startsWith("aclInit returned 507899");
    agent.faults();
    agent.awaitMetrics(
        Duration.ofSeconds(20), "linkwatch_probe_success{probe=\"p2p\",target=\"1->0\"} 1.0");
  }

  /** A reset that fails leaves the figures standing, but is logged and counted. */
  @Test
  @Order(6)
  void aFailingResetIsCountedAndLoggedWhileTheRunSucceeds() throws Exception {
    agent.faults("fail aclrtResetDevice 507899");
    String text =
        agent.awaitMetrics(
            Duration.ofSeconds(20),
            "linkwatch_driver_tolerated_failures_total{call=\"aclrtResetDevice\",probe=\"p2p\"}");
    assertThat(text).contains("linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 1.0");
    agent.awaitLog(
        Duration.ofSeconds(10),
        "WARN  ProbeExecutor: probe=p2p driver calls failed without failing the run:"
            + " aclrtResetDevice(0) returned 507899");
    JsonNode status = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
    assertThat(status.get("tolerated_failures").get("p2p").get(0).asText())
        .startsWith("aclrtResetDevice(");
    agent.faults();
  }

  @Test
  @Order(7)
  void sigtermStopsWithinFiveSecondsAndLeavesNoWorker() throws Exception {
    agent.faults("hang aclrtSynchronizeStream");
    Thread.sleep(7000); // a run is now hung in its worker
    var workers = agent.process().descendants().toList();
    int exit = agent.terminate(Duration.ofSeconds(5));
    assertThat(exit).isZero();
    Thread.sleep(500);
    assertThat(workers).noneMatch(ProcessHandle::isAlive);
  }

  private static String errorOf(String probe, String target) throws Exception {
    JsonNode status = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
    for (JsonNode t : status.get("targets")) {
      if (t.get("probe").asText().equals(probe) && t.get("target").asText().equals(target)) {
        return t.get("error").asText();
      }
    }
    throw new AssertionError("no status for " + probe + " " + target + ": " + status);
  }

  private static double durationOf(String text, String target) {
    String prefix = "linkwatch_probe_duration_seconds{probe=\"p2p\",target=\"" + target + "\"} ";
    return text.lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length())))
        .findFirst()
        .orElseThrow();
  }
}
