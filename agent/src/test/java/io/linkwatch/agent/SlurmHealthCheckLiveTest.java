package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import io.linkwatch.testing.OneNodeSlurm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The shipped HealthCheckProgram ({@code slurm/linkwatch-healthcheck.sh}) on a real one-node Slurm
 * (Debian's slurmctld, slurmd and munge, started by {@code scripts/slurm/one-node.sh} under a
 * temporary directory) beside a running agent on the sim's A3:
 *
 * <ul>
 *   <li>healthy: a job runs and the node stays idle;
 *   <li>the SIO link measured under the A3's floor: the node is drained with Reason {@code
 *       linkwatch: p2p 0->1 SIO 64MiB: LW-BELOW-FLOOR ...}, and resumed once the link is back;
 *   <li>a node drained by another reason keeps it, whatever the verdict;
 *   <li>in shadow mode ({@code verdicts.enforce: false}) the same failing link drains nothing: the
 *       health check counts the drain it would do on the agent's {@code /metrics};
 *   <li>with the agent gone (UNKNOWN), nothing changes.
 * </ul>
 */
@Execution(ExecutionMode.CONCURRENT)
class SlurmHealthCheckLiveTest {
  static final Path HEALTHCHECK =
      Path.of("..", "slurm", "linkwatch-healthcheck.sh").toAbsolutePath();

  static final String CONFIG =
      """
      passive:
        interval: 3s
        deadline: 2s
      probes:
        p2p:
          every: 6s
          deadline: 5s
          sizes: [64MiB]
          warmup: 1
          iterations: 3
        topology:
          every: 1h
          deadline: 30s
      """;

  @TempDir Path dir;

  @Test
  void drainsOnAFailedLinkResumesItsOwnAndLeavesOthersAlone() throws Exception {
    // The agent also reads its peers from this Slurm (peers.slurm), which starts after it (sinfo
    // waits for a configuration that is not there yet, up to the read's 20 s). Its port here is
    // not the members' (10187), so it answers peers and probes none; the list is what is checked.
    AgentProcess agent =
        AgentProcess.start(
            dir,
            AgentProcess.onlyProbes(
                "peers:\n  slurm:\n    port: 10187\n    refresh: 1s\n" + CONFIG),
            Map.of("SLURM_CONF", dir.resolve("slurm").resolve("slurm.conf").toString()));
    try {
      String url = "http://127.0.0.1:" + agent.port();
      agent.awaitMetrics(
          Duration.ofSeconds(60),
          "linkwatch_device_info{",
          "linkwatch_p2p_bandwidth_bytes_per_second{");
      // The health check calls `linkwatch status` as a command, here this build's classes.
      Path linkwatch = OneNodeSlurm.linkwatchCommand(dir);
      Path hc =
          OneNodeSlurm.executable(
              dir.resolve("hc.sh"),
              "#!/bin/sh\nexport LINKWATCH='"
                  + linkwatch
                  + "' LINKWATCH_URL='"
                  + url
                  + "'\n[ -r '"
                  + dir.resolve("hc.env")
                  + "' ] && . '"
                  + dir.resolve("hc.env")
                  + "'\nexec '"
                  + HEALTHCHECK
                  + "'\n");
      try (OneNodeSlurm slurm =
          OneNodeSlurm.start(
              dir, 7817, "--healthcheck", hc.toString(), "--healthcheck-interval", "2")) {
        // Healthy: a job runs and the node stays up.
        String job = slurm.run("sbatch", "--parsable", "-o", "/dev/null", "--wrap", "true");
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!slurm.run("squeue", "-h", "-j", job, "-o", "%T").isEmpty()
            && System.nanoTime() < until) {
          Thread.sleep(500);
        }
        assertThat(slurm.run("squeue", "-h", "-j", job, "-o", "%T")).as("job " + job).isEmpty();
        Thread.sleep(5000); // two health checks
        assertThat(slurm.nodeState()).isEqualTo("idle|none");
        // peers.slurm: the node is the one member, served as HTTP SD.
        agent.awaitMetrics(Duration.ofSeconds(30), "linkwatch_peer_members{source=\"slurm\"} 1.0");
        assertThat(agent.get("/api/v1/peers").body())
            .isEqualTo("[{\"targets\":[\"" + slurm.node() + ":10187\"],\"labels\":{}}]");

        // The SIO link at half its rate: 64 MiB copies measure under the A3's floor.
        agent.faults("link 0 1 scale 0.5");
        String drained =
            slurm.awaitNode(
                Duration.ofSeconds(90),
                s -> s.contains("|linkwatch: "),
                "drained by the health check");
        assertThat(drained)
            .matches("(drained|draining|drain)\\|linkwatch: p2p 0->1 SIO 64MiB: LW-BELOW-FLOOR .*");

        // Back to normal: the health check resumes what it drained.
        agent.faults();
        slurm.awaitNode(Duration.ofSeconds(90), "idle|none"::equals, "resumed by the health check");

        // Drained by someone else: the reason stays, failing link or not.
        slurm.run(
            "scontrol",
            "update",
            "NodeName=" + slurm.node(),
            "State=DRAIN",
            "Reason=maintenance window");
        agent.faults("link 0 1 scale 0.5");
        JavaProcess.Result fail;
        long failBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        do {
          Thread.sleep(1000);
          fail = JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--url", url);
        } while (fail.exit() != 1 && System.nanoTime() < failBy);
        assertThat(fail.exit()).as("the verdict is FAIL meanwhile").isEqualTo(1);
        Thread.sleep(6000); // three health checks with a FAIL verdict
        assertThat(slurm.nodeState()).endsWith("|maintenance window");
        agent.faults();
        Thread.sleep(6000); // and with an OK one: not ours to resume
        assertThat(slurm.nodeState()).endsWith("|maintenance window");
        slurm.run("scontrol", "update", "NodeName=" + slurm.node(), "State=RESUME");
        slurm.awaitNode(Duration.ofSeconds(30), "idle|none"::equals, "resumed by hand");

        // Shadow mode (verdicts.enforce: false in the config status reads): the same failing link
        // that drained the node above, and the health check only says the drain it would do.
        Path shadow = dir.resolve("shadow.yaml");
        java.nio.file.Files.writeString(
            shadow,
            "verdicts:\n  enforce: false\ncoordination:\n  lock_file: "
                + dir.resolve("probes.lock")
                + "\n");
        java.nio.file.Files.writeString(
            dir.resolve("hc.env"), "export LINKWATCH_CONFIG='" + shadow + "'\n");
        agent.faults("link 0 1 scale 0.5");
        String counted =
            agent.awaitMetrics(
                Duration.ofSeconds(90),
                "linkwatch_shadow_actions_total{action=\"drain\",hook=\"healthcheck\"}");
        assertThat(slurm.nodeState()).isEqualTo("idle|none");
        assertThat(counted).contains("linkwatch_verdicts_enforced 1.0");
        // The verdict as the health check gets it; a p2p run that missed its deadline on a loaded
        // machine is UNKNOWN meanwhile, so ask until a run has measured the slow link.
        JavaProcess.Result asked;
        long askBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        do {
          asked =
              JavaProcess.run(
                  Map.of(),
                  Duration.ofSeconds(60),
                  "status",
                  "--url",
                  url,
                  "--config",
                  shadow.toString(),
                  "--hook",
                  "healthcheck");
        } while (!asked.out().startsWith("SHADOW FAIL") && System.nanoTime() < askBy);
        assertThat(asked.exit()).as(asked.out()).isZero();
        assertThat(asked.out())
            .startsWith("SHADOW FAIL - p2p 0->1 SIO 64MiB: LW-BELOW-FLOOR")
            .contains("note: shadow mode (verdicts.enforce: false): the healthcheck would drain");
        Thread.sleep(4000); // two more health checks with the FAIL verdict
        assertThat(slurm.nodeState()).isEqualTo("idle|none");
        assertThat(java.nio.file.Files.readString(dir.resolve("shadow-healthcheck.json")))
            .contains("\"last_line\":\"SHADOW FAIL - p2p 0->1 SIO 64MiB: LW-BELOW-FLOOR");
        agent.faults();

        // The agent is gone: UNKNOWN, and nothing changes.
        agent.close();
        Thread.sleep(8000);
        assertThat(slurm.nodeState()).isEqualTo("idle|none");
      }
    } finally {
      agent.close();
    }
  }
}
