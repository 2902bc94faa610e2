package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linkwatch check} as a user types it beside the sim demo: no {@code --backend}, no sim
 * settings in its environment. It takes the backend, the profile and the fault control file from
 * the agent on this host (recorded beside the probe lock), so it measures the eight HCCS devices
 * the agent does and sees the fault written for the agent; without them it found no device library
 * at all ({@code LW-NO-RUNTIME}).
 */
class CheckBesideTheAgentLiveTest {
  @TempDir Path dir;

  @Test
  void aCheckWithNoBackendOfItsOwnMeasuresWhatTheAgentRuns() throws Exception {
    Path lock = dir.resolve("probes.lock");
    String coordination = "coordination:\n  lock_file: " + lock + "\n";
    Map<String, String> agentEnv =
        Map.of("LINKWATCH_SIM_PROFILE", CulpritCheckLiveTest.HCCS_PROFILE.toString());
    try (AgentProcess agent =
        AgentProcess.start(
            dir,
            coordination + AgentProcess.onlyProbes("probes:\n  topology: {every: 1h}\n"),
            agentEnv)) {
      assertThat(Files.readString(lock.resolveSibling("agent.url")))
          .contains("backend sim\n", "env LINKWATCH_SIM_PROFILE=", "env LINKWATCH_SIM_CONTROL=");
      List<String> slow = new ArrayList<>();
      for (int peer = 0; peer < 8; peer++) {
        if (peer != 3) {
          slow.add("link 3 " + peer + " scale 0.5");
          slow.add("link " + peer + " 3 scale 0.5");
        }
      }
      agent.faults(slow.toArray(String[]::new));

      Path config = dir.resolve("check.yaml");
      Files.writeString(
          config,
          coordination
              + """
              expected:
                - {product: Ascend910B, link: HCCS, probe: p2p, min_size: 256MiB, floor_gbps: 40,
                   warn_gbps: 45, source: this test's rack}
              """);
      // The user's shell: none of the sim's variables (a null value takes one out).
      Map<String, String> bare = new HashMap<>();
      bare.put("LINKWATCH_SIM_PROFILE", null);
      bare.put("LINKWATCH_SIM_CONTROL", null);
      JavaProcess.Result r =
          JavaProcess.run(bare, Duration.ofSeconds(180), "check", "--config", config.toString());

      assertThat(r.out().lines().findFirst().orElse(""))
          .as(r.out() + r.err())
          .startsWith("FAIL - device 3: LW-DEVICE-SLOW all 14 of its pairs low");
      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.out())
          .contains(
              "note: backend sim, as the agent on this host runs (pid " + agent.process().pid(),
              "note: the sim as the agent on this host runs it: LINKWATCH_SIM_CONTROL=")
          .doesNotContain("LW-NO-RUNTIME");
    }
  }
}
