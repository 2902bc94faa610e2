package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.Exposition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the probes take from the devices, on {@code /metrics}: the seconds each device was held move
 * by the runs' own durations while probes run, and not at all while a job holds every device.
 */
class ProbeDeviceSecondsLiveTest {
  static final String CONFIG =
      """
      passive:
        enabled: false
      busy:
        retry: 2s
      probes:
        p2p:
          every: 4s
          deadline: 3s
          sizes: [16MiB]
          warmup: 1
          iterations: 3
      """;

  static final List<String> TARGETS = List.of("0->1", "1->0");

  @TempDir Path dir;

  /** The sample's value, 0 before the series first appears (a counter not yet counted). */
  private static double value(String metrics, String series) {
    return Exposition.sample(metrics, series).orElse(0);
  }

  /**
   * The results of runs that held their devices: each adds its wall time to them, whether it
   * measured or not (a run that timed out on a loaded machine held them until its deadline).
   */
  static final List<String> HELD = List.of("success", "error", "timeout", "discarded_device_busy");

  /** The runs of {@code target} that held its devices so far. */
  private static double held(String metrics, String target) {
    return HELD.stream().mapToDouble(r -> value(metrics, runs(target, r))).sum();
  }

  private static String runs(String target, String result) {
    return "linkwatch_probe_runs_total{probe=\"p2p\",result=\""
        + result
        + "\",target=\""
        + target
        + "\"}";
  }

  private static String seconds(int device) {
    return "linkwatch_probe_device_seconds_total{device=\"" + device + "\"}";
  }

  @Test
  void theDevicesTimeMovesByTheRunsDurationsAndNotWhileAJobHoldsThem() throws Exception {
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), Map.of())) {
      agent.awaitMetrics(Duration.ofSeconds(60), runs("1->0", "success") + " 1.0");
      // from here, each new run of a target adds its duration to both its devices
      String m = agent.metrics();
      double start0 = value(m, seconds(0));
      double start1 = value(m, seconds(1));
      assertThat(start0).isPositive();
      Map<String, Double> seen = new HashMap<>();
      TARGETS.forEach(t -> seen.put(t, held(m, t)));
      double summed = 0;
      int newRuns = 0;
      long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      double last0 = start0;
      double last1 = start1;
      while (newRuns < 6 && System.nanoTime() < until) {
        Thread.sleep(150);
        String now = agent.metrics();
        for (String t : TARGETS) {
          double count = held(now, t);
          if (count > seen.get(t)) {
            assertThat(count).as("one run at a time between scrapes").isEqualTo(seen.get(t) + 1);
            seen.put(t, count);
            summed +=
                value(now, "linkwatch_probe_duration_seconds{probe=\"p2p\",target=\"" + t + "\"}");
            newRuns++;
          }
        }
        last0 = value(now, seconds(0));
        last1 = value(now, seconds(1));
      }
      assertThat(newRuns).isGreaterThanOrEqualTo(6);
      assertThat(last0 - start0)
          .isCloseTo(summed, org.assertj.core.data.Percentage.withPercentage(10));
      assertThat(last1 - start1)
          .isCloseTo(summed, org.assertj.core.data.Percentage.withPercentage(10));

      // a job on both devices: the probe waits, and takes nothing from them
      agent.faults(
          "busy 0 pid 4242 util 95 memory 2147483648", "busy 1 pid 4242 util 95 memory 2147483648");
      agent.awaitMetrics(Duration.ofSeconds(30), runs("0->1", "skipped_device_busy") + " 1.0");
      double busy0 = value(agent.metrics(), seconds(0));
      Thread.sleep(8000);
      String after = agent.metrics();
      assertThat(value(after, runs("0->1", "skipped_device_busy"))).isGreaterThan(1);
      assertThat(value(after, seconds(0))).isEqualTo(busy0);
      // the status says the same
      com.fasterxml.jackson.databind.JsonNode status =
          new com.fasterxml.jackson.databind.ObjectMapper()
              .readTree(agent.get("/api/v1/status").body())
              .get("probe_device_seconds");
      assertThat(status.get("0").asDouble())
          .isCloseTo(busy0, org.assertj.core.data.Offset.offset(1e-6));
      assertThat(status.get("1").asDouble()).isPositive();
    }
  }
}
