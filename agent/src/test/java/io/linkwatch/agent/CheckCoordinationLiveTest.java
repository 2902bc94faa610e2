package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.ProbeLock;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running agent and {@code linkwatch check} never measure at the same time. The sim's copies are
 * paced ({@code pace 100}: each takes wall time, and a copy beside another process's copy on the
 * same device gets half the link), and each of the agent's p2p runs copies for about 20 seconds. A
 * check started while such a run holds the probe lock:
 *
 * <ul>
 *   <li>without the lock (coordination off) measures beside the agent's copies, and a healthy SIO
 *       link FAILs under its floor: the false result the lock prevents;
 *   <li>with it, waits for the agent's run, names it, and finds the same link OK.
 * </ul>
 */
class CheckCoordinationLiveTest {
  @TempDir Path dir;

  /** Waits until the agent's p2p run holds the lock (tried from here without waiting). */
  private static void awaitAgentRun(ProbeLock lock) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < end) {
      Optional<ProbeLock.Held> probe = lock.acquire("test", Duration.ZERO);
      if (probe.isEmpty() && lock.holder().startsWith("agent probe p2p")) {
        return;
      }
      probe.ifPresent(ProbeLock.Held::close);
      Thread.sleep(100);
    }
    throw new AssertionError("the agent's p2p run never held the lock; holder: " + lock.holder());
  }

  @Test
  void theLockKeepsCheckAndProbesApartWithoutItTheCheckReadsLow() throws Exception {
    Path lockFile = dir.resolve("probes.lock");
    ProbeLock lock = new ProbeLock(lockFile);
    // 61 copies per pair at 256 MiB, ~0.17 s each when paced: ~20 s of copying per run.
    String config =
        """
        passive:
          enabled: false
        coordination:
          lock_file: %s
        probes:
          p2p:
            every: 40s
            deadline: 38s
            sizes: [256MiB]
            warmup: 1
            iterations: 60
        """
            .formatted(lockFile);
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of())) {
      agent.faults("pace 100");
      Map<String, String> env =
          Map.of("LINKWATCH_SIM_CONTROL", dir.resolve("sim-control").toString());
      String url = "http://127.0.0.1:" + agent.port();

      Path alone = dir.resolve("uncoordinated.yaml");
      Files.writeString(alone, "backend: sim\ncoordination:\n  lock_file: \"\"\n");
      awaitAgentRun(lock);
      JavaProcess.Result low =
          JavaProcess.run(
              env, Duration.ofSeconds(120), "check", "--config", alone.toString(), "--url", url);
      assertThat(low.exit()).as(low.out() + low.err()).isEqualTo(1);
      assertThat(low.out().lines().findFirst().orElseThrow())
          .startsWith("FAIL - p2p ")
          .contains("LW-BELOW-FLOOR");
      assertThat(low.out()).contains("probe lock: uncoordinated: no lock file configured");

      Path shared = dir.resolve("coordinated.yaml");
      Files.writeString(shared, "backend: sim\ncoordination:\n  lock_file: " + lockFile + "\n");
      awaitAgentRun(lock);
      JavaProcess.Result ok =
          JavaProcess.run(
              env,
              Duration.ofSeconds(150),
              "check",
              "--config",
              shared.toString(),
              "--url",
              url,
              "--timeout",
              "120s");
      assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
      assertThat(ok.out().lines().findFirst().orElseThrow())
          .matches("OK - 2 devices, 2 p2p figures, [0-9]+ links: as expected");
      assertThat(ok.out())
          .containsPattern(
              "probe lock: held "
                  + java.util.regex.Pattern.quote(lockFile.toString())
                  + " after waiting [0-9.]+ s for agent probe p2p \\(pid [0-9]+\\)");
    }
  }
}
