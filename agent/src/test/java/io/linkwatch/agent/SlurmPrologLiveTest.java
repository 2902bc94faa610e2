package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.OneNodeSlurm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The shipped Prolog and Epilog ({@code slurm/prolog.d/50-linkwatch.sh}, {@code
 * slurm/epilog.d/50-linkwatch.sh}) on a real one-node Slurm beside a running agent on the sim's A3,
 * sharing its probe lock:
 *
 * <ul>
 *   <li>healthy: a job runs after a quick check, a medium check follows it, the node stays idle;
 *   <li>the SIO link slowed under its floor: the prolog fails, Slurm drains the node with "Prolog
 *       error" and requeues the job, held; the check's verdict is kept for the agent's /metrics;
 *   <li>a device busy with another job: UNKNOWN, logged, and the job runs (the prolog's default);
 *   <li>in shadow mode ({@code verdicts.enforce: false}) the slow link again: the checks fail, the
 *       job runs, the node stays idle, and the drains are counted on the agent's /metrics;
 *   <li>each job's link record ({@code status --job ID}): the checks before and after it, and the
 *       CRC errors its link counted while it ran.
 * </ul>
 */
@Execution(ExecutionMode.CONCURRENT)
class SlurmPrologLiveTest {
  static final Path PROLOG = Path.of("..", "slurm", "prolog.d", "50-linkwatch.sh").toAbsolutePath();
  static final Path EPILOG = Path.of("..", "slurm", "epilog.d", "50-linkwatch.sh").toAbsolutePath();

  @TempDir Path dir;

  /** A hook as slurmd runs it (its own environment), pointed at this build and the agent. */
  private Path hook(String name, Path shipped, Path linkwatch, Path config, String url)
      throws IOException {
    StringBuilder s = new StringBuilder("#!/bin/sh\n");
    for (String v :
        List.of("LINKWATCH_SIM_LIBRARY", "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "HCCL_EXEC_TIMEOUT")) {
      if (System.getenv(v) != null) {
        s.append("export ").append(v).append("='").append(System.getenv(v)).append("'\n");
      }
    }
    s.append("export LINKWATCH_SIM_CONTROL='").append(dir.resolve("sim-control")).append("'\n");
    s.append("export LINKWATCH='").append(linkwatch).append("'\n");
    s.append("export LINKWATCH_CHECK_ARGS='--config ")
        .append(config)
        .append(" --url ")
        .append(url)
        .append("'\n");
    // The epilog's level from a file the test writes: medium for the first job (proving it under
    // Slurm), quick afterwards (the scenarios after it are about the prolog).
    s.append("[ -r '")
        .append(dir.resolve("epilog-level"))
        .append("' ] && export LINKWATCH_EPILOG_LEVEL=$(cat '")
        .append(dir.resolve("epilog-level"))
        .append("')\n");
    s.append("exec '").append(shipped).append("'\n");
    return OneNodeSlurm.executable(dir.resolve(name), s.toString());
  }

  /** {@code linkwatch status --job ID}, as an operator runs it on the node. */
  private static String jobReport(Path linkwatch, Path config, String url, String job)
      throws Exception {
    Process p =
        new ProcessBuilder(
                linkwatch.toString(),
                "status",
                "--config",
                config.toString(),
                "--url",
                url,
                "--job",
                job)
            .redirectErrorStream(true)
            .start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out;
  }

  @Test
  void prologFailsOnASlowLinkDrainsAndRequeuesUnknownLetsTheJobRun() throws Exception {
    Path lock = dir.resolve("run/probes.lock");
    Files.createDirectories(lock.getParent());
    String config =
        """
        passive:
          interval: 3s
          deadline: 2s
        coordination:
          lock_file: %s
        probes:
          p2p:
            every: 6s
            deadline: 5s
            sizes: [64MiB]
            warmup: 1
            iterations: 3
        """
            .formatted(lock);
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of())) {
      String url = "http://127.0.0.1:" + agent.port();
      agent.awaitMetrics(Duration.ofSeconds(60), "linkwatch_p2p_bandwidth_bytes_per_second{");
      Path linkwatch = OneNodeSlurm.linkwatchCommand(dir);
      Path checkConfig = dir.resolve("check.yaml");
      Files.writeString(checkConfig, "backend: sim\ncoordination:\n  lock_file: " + lock + "\n");
      Path prolog = hook("prolog.sh", PROLOG, linkwatch, checkConfig, url);
      Path epilog = hook("epilog.sh", EPILOG, linkwatch, checkConfig, url);
      try (OneNodeSlurm slurm =
          OneNodeSlurm.start(
              dir, 7827, "--prolog", prolog.toString(), "--epilog", epilog.toString())) {
        // Healthy: quick check, the job, then a medium check; the node stays idle.
        String job = slurm.run("sbatch", "--parsable", "-o", "/dev/null", "--wrap", "true");
        slurm.awaitHook(Duration.ofSeconds(120), "epilog end rc=0 job=" + job);
        assertThat(slurm.hooks()).anyMatch(l -> l.contains("prolog end rc=0 job=" + job));
        assertThat(slurm.nodeState()).isEqualTo("idle|none");
        assertThat(lock.resolveSibling("last-check-medium.json"))
            .content()
            .contains("\"state\":\"OK\"");
        // The job's link record: the prolog's check before it, the epilog's after it.
        String report = jobReport(linkwatch, checkConfig, url, job);
        assertThat(report)
            .startsWith("job " + job + ": ended\n")
            .containsPattern("before: \\S+ quick check: OK - 2 devices")
            .containsPattern("after:  \\S+ medium check: OK - 2 devices")
            .contains("link counters over the job: no errors on any of");
        Files.writeString(dir.resolve("epilog-level"), "quick\n");

        // The SIO link at half its rate: the prolog's 256 MiB copies measure under the floor.
        agent.faults("link 0 1 scale 0.5");
        String failed = slurm.run("sbatch", "--parsable", "-o", "/dev/null", "--wrap", "true");
        String drained =
            slurm.awaitNode(
                Duration.ofSeconds(90),
                s -> s.endsWith("|Prolog error"),
                "drained by Slurm after the failed prolog");
        assertThat(drained).matches("(drained|draining|drain)\\|Prolog error");
        assertThat(slurm.hooks()).anyMatch(l -> l.contains("prolog end rc=1 job=" + failed));
        // Requeued and held (COMPLETING while the epilog still runs after the failed prolog).
        String requeued =
            slurm.await(
                Duration.ofSeconds(60),
                s -> s.matches("(PENDING|COMPLETING)\\|.*requeued.*"),
                "job " + failed + " requeued",
                "squeue",
                "-h",
                "-j",
                failed,
                "-o",
                "%T|%r");
        assertThat(requeued).containsIgnoringCase("held");
        assertThat(lock.resolveSibling("last-check-quick.json"))
            .content()
            .contains("\"state\":\"FAIL\"", "\"code\":\"LW-BELOW-FLOOR\"");
        // ...and the agent publishes it, for the fleet dashboard.
        agent.awaitMetrics(
            Duration.ofSeconds(20),
            "linkwatch_check_state{level=\"quick\",state=\"FAIL\"} 1.0",
            "linkwatch_check_reason_info{code=\"LW-BELOW-FLOOR\",level=\"quick\","
                + "subject=\"p2p 0->1 SIO 256MiB\"} 1",
            "linkwatch_check_state{level=\"medium\",state=\"OK\"} 1.0");
        slurm.run("scancel", failed);
        // Slurm runs the epilog after a failed prolog too; on the still slow link it fails.
        slurm.awaitHook(Duration.ofSeconds(120), "epilog end rc=1 job=" + failed);

        // A job on device 1 (pid 4242): the check cannot judge, the job runs all the same.
        agent.faults("busy 1 pid 4242 util 80");
        slurm.run("scontrol", "update", "NodeName=" + slurm.node(), "State=RESUME");
        slurm.awaitNode(Duration.ofSeconds(30), "idle|none"::equals, "resumed by hand");
        String runs = slurm.run("sbatch", "--parsable", "-o", "/dev/null", "--wrap", "true");
        slurm.awaitHook(Duration.ofSeconds(120), "epilog end rc=0 job=" + runs);
        assertThat(slurm.hooks()).anyMatch(l -> l.contains("prolog end rc=0 job=" + runs));
        assertThat(lock.resolveSibling("last-check-quick.json"))
            .content()
            .contains("\"state\":\"UNKNOWN\"", "\"code\":\"LW-DEVICE-BUSY\"");
        assertThat(slurm.nodeState()).isEqualTo("idle|none");

        // Shadow mode: the slow link that drained the node above, and the job runs; the checks
        // still fail, and the drains they would have caused are counted on /metrics.
        Files.writeString(
            checkConfig,
            "backend: sim\nverdicts:\n  enforce: false\ncoordination:\n  lock_file: "
                + lock
                + "\n");
        // CRC errors on the SIO link while it runs: the job's report counts them.
        agent.faults("link 0 1 scale 0.5", "sio 0 crc-rx 50");
        String shadowed = slurm.run("sbatch", "--parsable", "-o", "/dev/null", "--wrap", "sleep 4");
        slurm.awaitHook(Duration.ofSeconds(120), "epilog end rc=0 job=" + shadowed);
        assertThat(slurm.hooks()).anyMatch(l -> l.contains("prolog end rc=0 job=" + shadowed));
        assertThat(slurm.nodeState()).isEqualTo("idle|none");
        assertThat(lock.resolveSibling("last-check-quick.json"))
            .content()
            .contains("\"state\":\"FAIL\"", "\"code\":\"LW-BELOW-FLOOR\"");
        agent.awaitMetrics(
            Duration.ofSeconds(20),
            "linkwatch_shadow_actions_total{action=\"drain\",hook=\"prolog\"} 1.0",
            "linkwatch_shadow_actions_total{action=\"drain\",hook=\"epilog\"} 1.0");
        assertThat(jobReport(linkwatch, checkConfig, url, shadowed))
            .containsPattern("before: \\S+ quick check: FAIL - ")
            .containsPattern("1 of \\d+ links and ports counted errors")
            .containsPattern("dev0 SIO link \\S+ \\(to 1\\): crc\\S* \\+\\d+");
      }
    }
  }
}
