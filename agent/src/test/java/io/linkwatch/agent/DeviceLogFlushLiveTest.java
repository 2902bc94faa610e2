package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CANN holds the exit of a process for ASCEND_LOG_DEVICE_FLUSH_TIMEOUT ms (default 2000) so that
 * device-side logs reach the host, and the sim does the same, saying so on stderr (2000 ms when
 * unset: native/test/test_exit.c). A worker exits after every run, and a one-shot command after
 * one: the agent gives its workers 0, and a command sets 0 for itself, unless the operator set the
 * variable.
 */
class DeviceLogFlushLiveTest {
  static final String VARIABLE = "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT";
  static final String CONFIG =
      """
      probes:
        device_memory:
          every: 1m
          deadline: 20s
          size: 4MiB
          warmup: 1
          iterations: 2
      """;

  @TempDir Path dir;

  static Map<String, String> env(String value) {
    Map<String, String> env = new HashMap<>();
    env.put(VARIABLE, value); // null: not set at all
    return env;
  }

  @Test
  void aOneShotCommandExitsAtOnceUnlessTheOperatorSetTheVariable() throws Exception {
    JavaProcess.Result unset =
        JavaProcess.run(env(null), Duration.ofSeconds(60), "topo", "--backend", "sim");
    assertThat(unset.exit()).as(unset.err()).isZero();
    assertThat(unset.err()).doesNotContain("exit held");

    JavaProcess.Result set =
        JavaProcess.run(env("300"), Duration.ofSeconds(60), "topo", "--backend", "sim");
    assertThat(set.err())
        .contains("linkwatch-sim: exit held 300 ms for device logs (" + VARIABLE + " 300)");
  }

  @Test
  void workersOfAnAgentWithoutTheVariableExitAtOnce() throws Exception {
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), env(null))) {
      agent.awaitMetrics(
          Duration.ofSeconds(60), "linkwatch_device_memory_bandwidth_bytes_per_second{");
      agent.awaitLog(Duration.ofSeconds(10), "probe=device_memory target=dev1 result=success");

      assertThat(agent.log()).noneMatch(l -> l.contains("exit held"));
    }
  }

  @Test
  void anOperatorsValueReachesTheWorkers() throws Exception {
    try (AgentProcess agent =
        AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), env("300"))) {
      agent.awaitLog(
          Duration.ofSeconds(60),
          "linkwatch-sim: exit held 300 ms for device logs (" + VARIABLE + " 300)");
    }
  }
}
