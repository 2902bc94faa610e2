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
 * A running agent and {@code linkwatch check} never measure at the same time. The sim's copies are
 * paced ({@code pace 100}: each takes wall time, and a copy beside another process's copy on the
 * same device gets half the link), and the agent measures p2p nearly all the time. Without the
 * shared probe lock the check's copies land beside the agent's and a healthy link FAILs under its
 * floor; with it, the check waits for the agent's run, the agent's next runs wait for the check,
 * and the same link is OK.
 */
class CheckCoordinationLiveTest {
  @TempDir Path dir;

  @Test
  void theLockKeepsCheckAndProbesApartWithoutItTheCheckReadsLow() throws Exception {
    Path lock = dir.resolve("probes.lock");
    String config =
        """
        passive:
          interval: 2s
          deadline: 1500ms
        coordination:
          lock_file: %s
        probes:
          p2p:
            every: 4s
            deadline: 3800ms
            sizes: [256MiB]
            warmup: 1
            iterations: 8
        """
            .formatted(lock);
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of())) {
      agent.awaitMetrics(
          Duration.ofSeconds(60), "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"1\"");
      // From here each of the agent's runs copies for about 3 of every 4 seconds.
      agent.faults("pace 100");
      String url = "http://127.0.0.1:" + agent.port();
      Map<String, String> env =
          Map.of("LINKWATCH_SIM_CONTROL", dir.resolve("sim-control").toString());

      Path alone = dir.resolve("uncoordinated.yaml");
      Files.writeString(alone, "backend: sim\ncoordination:\n  lock_file: \"\"\n");
      JavaProcess.Result low = null;
      for (int attempt = 0; attempt < 3; attempt++) {
        low =
            JavaProcess.run(
                env, Duration.ofSeconds(90), "check", "--config", alone.toString(), "--url", url);
        if (low.exit() == 1) {
          break;
        }
      }
      assertThat(low.exit()).as(low.out() + low.err()).isEqualTo(1);
      assertThat(low.out().lines().findFirst().orElseThrow())
          .startsWith("FAIL - p2p ")
          .contains("LW-BELOW-FLOOR");
      assertThat(low.out()).contains("probe lock: uncoordinated: no lock file configured");

      int logFrom = agent.log().size();
      Path shared = dir.resolve("coordinated.yaml");
      Files.writeString(shared, "backend: sim\ncoordination:\n  lock_file: " + lock + "\n");
      JavaProcess.Result ok =
          JavaProcess.run(
              env, Duration.ofSeconds(90), "check", "--config", shared.toString(), "--url", url);
      assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
      assertThat(ok.out().lines().findFirst().orElseThrow())
          .matches("OK - 2 devices, 2 p2p figures, 2 links: as expected");
      assertThat(ok.out()).contains("probe lock: held " + lock);
      // The agent's runs that came due meanwhile waited for the check, naming it.
      agent.awaitLog(Duration.ofSeconds(10), logFrom, "held the devices the whole time");
      assertThat(agent.log().subList(logFrom, agent.log().size()))
          .anyMatch(l -> l.contains("result=skipped_busy: linkwatch check quick (pid "));
    }
  }
}
