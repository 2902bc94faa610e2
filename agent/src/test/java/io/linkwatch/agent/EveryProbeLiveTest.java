package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.registry.ProbeKind;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.Promtool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every probe of {@link ProbeKind} runs in the agent (a real child process on the sim, small sizes)
 * and shows its series on {@code /metrics}, which passes {@code promtool check metrics}: a probe
 * that is registered but not wired into the agent fails here.
 */
class EveryProbeLiveTest {
  // Seven probes share one lane, a worker start each: a probe waits for the lane up to its
  // interval minus its deadline (30 s here), so on a loaded machine none is skipped as
  // skipped_busy before its first run.
  static final String CONFIG =
      """
      probes:
        p2p: {every: 40s, deadline: 10s, sizes: [4MiB], warmup: 1, iterations: 2}
        p2p_bidirectional: {every: 40s, deadline: 10s, sizes: [4MiB], warmup: 1, iterations: 2}
        allreduce: {every: 40s, deadline: 10s, sizes: [1KiB, 4MiB], warmup: 1, iterations: 3}
        allgather: {every: 40s, deadline: 10s, sizes: [1KiB, 4MiB], warmup: 1, iterations: 3}
        host_transfer: {every: 40s, deadline: 10s, sizes: [4MiB], warmup: 1, iterations: 2, nodes: [0]}
        device_memory: {every: 40s, deadline: 10s, size: 4MiB, warmup: 1, iterations: 2}
        topology: {every: 40s, deadline: 10s}
      """;

  @TempDir Path dir;

  @Test
  void everyProbeRunsAndItsSeriesPassPromtool() throws Exception {
    assertThat(Arrays.stream(ProbeKind.values()).map(ProbeKind::id))
        .as("the config above names every probe")
        .allSatisfy(id -> assertThat(CONFIG).contains("  " + id + ": {"));
    try (AgentProcess agent = AgentProcess.start(dir, CONFIG, Map.of())) {
      String[] needles =
          Arrays.stream(ProbeKind.values())
              .map(k -> "linkwatch_probe_success{probe=\"" + k.id() + "\"")
              .toArray(String[]::new);
      String text = agent.awaitMetrics(Duration.ofSeconds(60), needles);
      for (ProbeKind kind : ProbeKind.values()) {
        assertThat(text.lines().filter(l -> l.startsWith(needles[kind.ordinal()])))
            .as(kind.id() + " succeeded everywhere")
            .isNotEmpty()
            .allSatisfy(l -> assertThat(l).endsWith(" 1.0"));
      }
      assertThat(text)
          .contains(
              "linkwatch_p2p_bidirectional_bandwidth_bytes_per_second{dst=\"1\",link=\"SIO\","
                  + "size_bytes=\"4194304\",src=\"0\"}")
          .contains(
              "linkwatch_allgather_bus_bandwidth_bytes_per_second{devices=\"0,1\","
                  + "size_bytes=\"4194304\"}");
      Promtool.assertCleanMetrics(text);
    }
  }
}
