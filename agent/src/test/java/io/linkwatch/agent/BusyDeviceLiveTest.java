package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.LiveRules;
import io.linkwatch.testing.PrometheusServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A job on device 1, as an operator's cluster has it most of the day: the agent on the sim under a
 * real Prometheus with the shipped rules (windows shortened by {@code
 * grafana/test/live-config.py}).
 *
 * <ol>
 *   <li>(a) while {@code busy 1 pid 4242 util 80} holds, for three p2p intervals (longer than the
 *       staleness threshold), no alert pends or fires, device 1 reads busy, the targets that need
 *       it count {@code skipped_device_busy}, and device 0's own target keeps being measured;
 *   <li>(b) once the line is removed, the waiting targets are measured within the retry period plus
 *       the run time, at the healthy figure;
 *   <li>(c) a job that starts in the middle of a p2p run gets that run discarded: no low sample
 *       reaches Prometheus;
 *   <li>(d) the same job under {@code policy: ignore} does put low samples into Prometheus and
 *       raises the link alert: the failure that (a)-(c) prevent is real.
 * </ol>
 */
@Execution(ExecutionMode.CONCURRENT)
@Order(1)
class BusyDeviceLiveTest {
  static final String PROBES =
      """
      probes:
        p2p:
          every: 20s
          deadline: 15s
          # 128 MiB copies: bandwidth, not latency, sets the time, so contention shows.
          sizes: [128MiB]
          warmup: 1
          iterations: 3
        device_memory:
          every: 20s
          deadline: 15s
          size: 64MiB
          warmup: 1
          iterations: 3
        topology:
          every: 60s
          deadline: 30s
      """;

  static final String P2P_01 =
      "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"1\",link_type=\"SIO\"";
  static final String P2P_10 =
      "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"0\",link_type=\"SIO\"";

  @TempDir Path dir;

  @Test
  void busyDevicesAreLeftAloneAndMeasuredInTheNextIdleWindow() throws Exception {
    Path rules = LiveRules.write(dir);
    String config = "busy:\n  retry: 2s\n" + PROBES;
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of());
        PrometheusServer prometheus = PrometheusServer.start(dir, agent.port(), "1s", rules)) {
      awaitSeries(agent, prometheus, "linkwatch_p2p_bandwidth_bytes_per_second", 2);
      awaitSeries(agent, prometheus, "linkwatch_device_memory_bandwidth_bytes_per_second", 2);
      LiveRules.awaitNoAlerts(prometheus, Duration.ofSeconds(30));
      double healthy = value(agent.metrics(), P2P_01).orElseThrow();

      // (a) a job on device 1 for three p2p intervals
      double dev0Before =
          value(agent.metrics(), runs("device_memory", "dev0", "success")).orElse(0);
      agent.faults("busy 1 pid 4242 util 80");
      long busyUntil = System.nanoTime() + Duration.ofSeconds(70).toNanos();
      while (System.nanoTime() < busyUntil) {
        assertThat(LiveRules.names(prometheus.alerts()))
            .as("alerts while device 1 is busy")
            .isEmpty();
        Thread.sleep(2000);
      }
      String m = agent.metrics();
      assertThat(value(m, "linkwatch_device_busy{device=\"1\"}")).hasValue(1.0);
      assertThat(value(m, "linkwatch_device_busy{device=\"0\"}")).hasValue(0.0);
      assertThat(m).contains("linkwatch_device_busy_reason{device=\"1\",reason=\"process\"} 1.0");
      // Retries every 2 s: many more skips than the three scheduled runs.
      assertThat(value(m, runs("p2p", "0->1", "skipped_device_busy")).orElse(0)).isGreaterThan(5);
      assertThat(value(m, runs("p2p", "1->0", "skipped_device_busy")).orElse(0)).isGreaterThan(5);
      assertThat(value(m, runs("device_memory", "dev1", "skipped_device_busy")).orElse(0))
          .isGreaterThan(2);
      assertThat(value(m, runs("device_memory", "dev0", "success")).orElse(0))
          .as("device 0's own target keeps running")
          .isGreaterThanOrEqualTo(dev0Before + 2);
      assertThat(value(m, "linkwatch_probe_deferred{probe=\"p2p\",target=\"0->1\"}")).hasValue(1.0);
      // The status page says which device is busy and why, per target and per device.
      JsonNode status = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
      assertThat(status.get("targets"))
          .filteredOn(t -> t.get("target").asText().equals("0->1"))
          .singleElement()
          .satisfies(
              t -> {
                assertThat(t.get("waiting_because").asText())
                    .startsWith("device 1 is busy: pid 4242");
                assertThat(t.get("waiting_for_idle_since").asText()).isNotEmpty();
              });
      assertThat(status.get("devices"))
          .filteredOn(d -> d.get("device").asInt() == 1)
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.get("busy").asBoolean()).isTrue();
                assertThat(d.get("source").asText()).isEqualTo("dcmi");
              });
      assertThat(minSample(prometheus, "0", "1", "100s") / healthy)
          .as("no contended p2p figure reached Prometheus")
          .isGreaterThan(0.9);

      // (b) the job ends just after a scheduled p2p run found the device busy (retries that still
      // find it busy log at debug level only), so that only a retry can measure the waiting
      // targets before the next scheduled run, 20 s later: within the retry period plus the run
      // time.
      int scheduled = agent.log().size();
      awaitLog(agent, scheduled, "probe=p2p target=1->0 result=skipped_device_busy", 30);
      int logLines = agent.log().size();
      long idleAt = System.nanoTime();
      agent.faults();
      awaitMetric(agent, "linkwatch_probe_deferred{probe=\"p2p\",target=\"1->0\"} 0.0", 20);
      double seconds = (System.nanoTime() - idleAt) / 1e9;
      // The log copy trails /metrics by a moment.
      awaitLog(agent, logLines, "probe=p2p target=0->1 result=success", 10);
      List<String> log = agent.log();
      List<String> after = log.subList(logLines, log.size());
      assertThat(after)
          .as("the waiting targets ran as retries, not at the next scheduled run")
          .anyMatch(
              l ->
                  l.contains("probe=p2p target=0->1 result=success")
                      && l.contains("(retry for an idle device)"));
      assertThat(seconds).as("seconds from idle to measured").isLessThan(12);
      assertThat(value(agent.metrics(), P2P_01).orElseThrow() / healthy).isGreaterThan(0.9);

      // (c) a job starts in the middle of a p2p run: the run is discarded
      double discardedBefore =
          value(agent.metrics(), runs("p2p", "0->1", "discarded_device_busy")).orElse(0);
      agent.faults("hang aclrtDeviceEnablePeerAccess");
      awaitLog(agent, "aclrtDeviceEnablePeerAccess hangs until its control line is removed", 30);
      agent.faults("busy 1 pid 4343 util 80"); // the job arrives, the stalled run goes on
      awaitMetric(
          agent, runs("p2p", "0->1", "discarded_device_busy") + " " + (discardedBefore + 1), 20);
      agent.faults();
      awaitMetric(agent, "linkwatch_probe_deferred{probe=\"p2p\",target=\"0->1\"} 0.0", 20);
      Thread.sleep(3000); // a few more scrapes
      assertThat(minSample(prometheus, "0", "1", "60s") / healthy)
          .as("the discarded run left no low sample in Prometheus")
          .isGreaterThan(0.9);
      assertThat(LiveRules.names(prometheus.alerts())).isEmpty();
    }
  }

  @Test
  void withPolicyIgnoreTheSameJobGivesLowSamplesAndALinkAlert() throws Exception {
    Path rules = LiveRules.write(dir);
    // p2p alone, every 8 s: enough samples for the shortened baseline and the alert's `for`
    // (with device_memory on the same 8 s beat, one of them could keep finding the lane taken).
    String config =
        "busy:\n  policy: ignore\n"
            + PROBES
                .replace("every: 20s", "every: 8s")
                .replace("deadline: 15s", "deadline: 7s")
                .replace("  device_memory:\n", "  device_memory:\n    enabled: false\n");
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of());
        PrometheusServer prometheus = PrometheusServer.start(dir, agent.port(), "1s", rules)) {
      awaitSeries(agent, prometheus, "linkwatch_p2p_bandwidth_bytes_per_second", 2);
      LiveRules.awaitNoAlerts(prometheus, Duration.ofSeconds(30));
      String before = agent.metrics();
      Map<String, Double> healthy =
          Map.of(
              "0->1", value(before, P2P_01).orElseThrow(),
              "1->0", value(before, P2P_10).orElseThrow());
      // Let the shortened baseline (samples older than 30 s) form.
      Thread.sleep(45_000);
      agent.faults("busy 1 pid 4242 util 80");
      JsonNode alert =
          LiveRules.awaitAlert(prometheus, "LinkwatchLinkBandwidthLow", Duration.ofSeconds(60))
              .get(0);
      String src = alert.get("labels").get("src").asText();
      String dst = alert.get("labels").get("dst").asText();
      assertThat(src + "->" + dst).isIn("0->1", "1->0");
      // The alerted direction, not always 0->1: a job that arrives between the two directions of
      // one run makes 1->0 low first and 0->1 only in the next run.
      assertThat(minSample(prometheus, src, dst, "60s") / healthy.get(src + "->" + dst))
          .as("a contended figure reached Prometheus")
          .isLessThan(0.8);
      // Ignore still reads activity, so the dashboard shows what the figure was measured next to.
      // Awaited: the run that alerted may have checked device 1 just before the job came, and a
      // loaded machine can make the next run late.
      awaitMetric(agent, "linkwatch_device_busy{device=\"1\"} 1.0", 30);
      agent.faults();
    }
  }

  static String runs(String probe, String target, String result) {
    return "linkwatch_probe_runs_total{probe=\""
        + probe
        + "\",result=\""
        + result
        + "\",target=\""
        + target
        + "\"}";
  }

  /** The value of the first sample whose line starts with {@code prefix}. */
  static OptionalDouble value(String metrics, String prefix) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(prefix)) {
        return OptionalDouble.of(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return OptionalDouble.empty();
  }

  static double minSample(PrometheusServer p, String src, String dst, String range)
      throws Exception {
    JsonNode r =
        p.query(
            "min_over_time(linkwatch_p2p_bandwidth_bytes_per_second{src=\""
                + src
                + "\",dst=\""
                + dst
                + "\"}["
                + range
                + "])");
    assertThat(r.size()).as("p2p samples of the last " + range).isGreaterThan(0);
    return r.get(0).get("value").get(1).asDouble();
  }

  /** Waits for the series in Prometheus; on failure the agent's log says why they are missing. */
  static void awaitSeries(AgentProcess agent, PrometheusServer p, String q, int atLeast)
      throws Exception {
    try {
      LiveRules.awaitQuery(p, q, atLeast, Duration.ofSeconds(60));
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage() + "\nagent log:\n" + String.join("\n", agent.log()), e);
    }
  }

  static void awaitMetric(AgentProcess agent, String line, int seconds) throws Exception {
    agent.awaitMetrics(Duration.ofSeconds(seconds), line);
  }

  static void awaitLog(AgentProcess agent, String needle, int seconds) throws Exception {
    awaitLog(agent, 0, needle, seconds);
  }

  /** Waits for a log line containing {@code needle} among the lines from index {@code from} on. */
  static void awaitLog(AgentProcess agent, int from, String needle, int seconds) throws Exception {
    agent.awaitLog(Duration.ofSeconds(seconds), from, needle);
  }
}
