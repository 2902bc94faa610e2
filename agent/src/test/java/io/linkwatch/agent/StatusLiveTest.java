package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linkwatch status} as a health-check program runs it, against a running agent on the sim's
 * A3: OK while the SIO link measures as the seed did, FAIL with a stable code once it measures
 * under the product's floor, UNKNOWN with no agent; each format's exit codes.
 */
class StatusLiveTest {
  static final String CONFIG =
      """
      passive:
        interval: 2s
        deadline: 1500ms
      probes:
        p2p:
          every: 10s
          deadline: 8s
          warmup: 1
          iterations: 3
        topology:
          every: 1h
          deadline: 30s
      """;

  @TempDir Path dir;

  private static JavaProcess.Result status(String url, String... more) throws Exception {
    String[] args = new String[3 + more.length];
    args[0] = "status";
    args[1] = "--url";
    args[2] = url;
    System.arraycopy(more, 0, args, 3, more.length);
    return JavaProcess.run(Map.of(), Duration.ofSeconds(60), args);
  }

  @Test
  void okThenFailUnderTheFloorAndUnknownWithoutAnAgent() throws Exception {
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(CONFIG), Map.of())) {
      String url = "http://127.0.0.1:" + agent.port();
      agent.awaitMetrics(
          Duration.ofSeconds(60),
          "linkwatch_device_info{",
          "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"1\"",
          "linkwatch_passive_read_success{device=\"0\",source=\"dcmi\"} 1.0");
      JavaProcess.Result ok = status(url);
      assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
      assertThat(ok.out().lines().findFirst().orElseThrow())
          .matches("OK - 2 devices, [0-9]+ p2p figures, 2 links: as expected");

      // 256 MiB copies at half the link's rate: ~83 GB/s, under the A3's floor of 124.1 GB/s.
      agent.faults("link 0 1 scale 0.5");
      long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      JavaProcess.Result fail = status(url);
      while (fail.exit() != 1 && System.nanoTime() < until) {
        Thread.sleep(1000);
        fail = status(url);
      }
      String first = fail.out().lines().findFirst().orElseThrow();
      assertThat(fail.exit()).as(fail.out()).isEqualTo(1);
      assertThat(first)
          .startsWith("FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR ")
          .hasSizeLessThanOrEqualTo(80);

      JavaProcess.Result nagios = status(url, "--format", "nagios");
      assertThat(nagios.exit()).isEqualTo(2);
      assertThat(nagios.out()).startsWith("CRITICAL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR ");
      JavaProcess.Result npd = status(url, "--format", "npd");
      assertThat(npd.exit()).isEqualTo(1);
      assertThat(npd.out().lines()).hasSize(1).first().asString().startsWith("FAIL - ");

      // The agent's own journal says it once, however many runs measure under the floor, and
      // once more when the link recovers: what `journalctl -p warning` shows an operator.
      double runsAtFail = successfulP2pRuns(agent);
      long runsUntil = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (successfulP2pRuns(agent) < runsAtFail + 2 && System.nanoTime() < runsUntil) {
        Thread.sleep(500);
      }
      Thread.sleep(6_000); // the journal judges every 5 s
      assertThat(successfulP2pRuns(agent)).isGreaterThanOrEqualTo(runsAtFail + 2);
      assertThat(journal(agent, "WARN", "LW-BELOW-FLOOR"))
          .as(String.join("\n", agent.log()))
          .hasSize(1)
          .first()
          .asString()
          .contains("p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR ");
      agent.faults();
      agent.awaitLog(Duration.ofSeconds(60), "p2p 0->1 SIO 256MiB: recovered (was LW-BELOW-FLOOR)");
      double runsAtRecovery = successfulP2pRuns(agent);
      runsUntil = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (successfulP2pRuns(agent) < runsAtRecovery + 1 && System.nanoTime() < runsUntil) {
        Thread.sleep(500);
      }
      Thread.sleep(6_000);
      assertThat(journal(agent, "INFO", "recovered (was LW-BELOW-FLOOR)")).hasSize(1);
      assertThat(journal(agent, "WARN", "LW-BELOW-FLOOR")).hasSize(1);
    }
    // The agent is gone: nothing to judge by.
    JavaProcess.Result gone = status("http://127.0.0.1:1", "--timeout", "2s");
    assertThat(gone.exit()).isEqualTo(2);
    assertThat(gone.out()).startsWith("UNKNOWN - agent at http://127.0.0.1:1: LW-NO-AGENT ");
    JavaProcess.Result goneNagios =
        status("http://127.0.0.1:1", "--timeout", "2s", "--format", "nagios");
    assertThat(goneNagios.exit()).isEqualTo(3);
    assertThat(gone.out().lines().findFirst().orElseThrow())
        .isEqualTo("UNKNOWN - agent at http://127.0.0.1:1: LW-NO-AGENT connection refused");
    // Bad input is a usage error (exit 2, one line naming the option), not a verdict.
    JavaProcess.Result badUrl = status("localhost:10187");
    assertThat(badUrl.exit()).isEqualTo(2);
    assertThat(badUrl.out()).isEmpty();
    assertThat(badUrl.err().strip())
        .isEqualTo(
            "linkwatch: Invalid value for option '--url': 'localhost:10187' is not an agent"
                + " address (use e.g. http://127.0.0.1:10187); see 'linkwatch status --help'");
  }

  /** The agent's log lines at {@code level} that contain {@code needle}. */
  private static List<String> journal(AgentProcess agent, String level, String needle) {
    return agent.log().stream()
        .filter(
            l -> l.contains(" " + level + " ") && l.contains("VerdictLog") && l.contains(needle))
        .toList();
  }

  /** How many p2p runs of 0->1 have succeeded so far, from the agent's own counter. */
  private static double successfulP2pRuns(AgentProcess agent) throws Exception {
    String needle = "linkwatch_probe_runs_total{probe=\"p2p\",result=\"success\",target=\"0->1\"} ";
    return agent
        .metrics()
        .lines()
        .filter(l -> l.startsWith(needle))
        .mapToDouble(l -> Double.parseDouble(l.substring(needle.length()).strip()))
        .findFirst()
        .orElse(0);
  }
}
