package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.SimControl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker does not outlive its agent: killed with {@code SIGKILL} while its worker hangs in a
 * collective (which only the agent's deadline would have ended), the agent takes the worker with
 * it. Without the parent-death signal the worker stayed, hung, holding its devices, with nobody
 * left to stop it.
 */
class WorkerDiesWithAgentTest {
  @TempDir Path dir;

  @Test
  void aWorkerHangingInACollectiveDiesWithItsAgent() throws Exception {
    // Before the start, so the first run already hangs.
    SimControl.write(dir.resolve("sim-control"), "hang HcclAllReduce");
    AgentProcess agent =
        AgentProcess.start(
            dir,
            AgentProcess.onlyProbes(
                "passive:\n  enabled: false\nprobes:\n"
                    + "  allreduce: {every: 10m, deadline: 5m, sizes: [1KiB], warmup: 0,"
                    + " iterations: 1}\n"),
            Map.of());
    try {
      ProcessHandle worker = awaitWorker(agent.process().toHandle());
      agent.process().destroyForcibly();
      agent.process().waitFor();
      long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (worker.isAlive() && System.nanoTime() < end) {
        Thread.sleep(100);
      }
      assertThat(worker.isAlive())
          .as("worker " + worker.pid() + " alive after its agent")
          .isFalse();
    } finally {
      agent.close();
    }
  }

  /** The agent's worker, once it runs. */
  private static ProcessHandle awaitWorker(ProcessHandle agent) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < end) {
      // Passive watching is off: the agent's one child is its worker.
      Optional<ProcessHandle> worker = agent.children().findFirst();
      if (worker.isPresent()) {
        // Give it the time to reach the hanging call (its start is about a second of CPU).
        Thread.sleep(3000);
        return worker.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "no worker started within a minute; children: "
            + agent
                .descendants()
                .map(c -> c.pid() + " " + c.info().commandLine().orElse("?"))
                .toList());
  }
}
