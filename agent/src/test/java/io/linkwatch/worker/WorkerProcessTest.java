package io.linkwatch.worker;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Backend;
import io.linkwatch.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** How the agent treats worker processes that hang, die, talk nonsense or repeat warnings. */
class WorkerProcessTest {
  static final WorkerRequest REQUEST =
      new WorkerRequest(
          "p2p", P2pSettings.DEFAULTS, Backend.SIM, HostPaths.system(), List.of("npu-smi"));

  /** The package's logger: relayed worker lines keep their logger's name under it. */
  @RegisterExtension final LogCapture logged = new LogCapture("io.linkwatch.worker");

  static WorkerProcess shell(String script) {
    return new WorkerProcess(List.of("sh", "-c", "cat >/dev/null; " + script), true);
  }

  @Test
  void workersGetNoExitWaitForDeviceLogsUnlessTheOperatorSetOne() {
    java.util.Map<String, String> unset = new java.util.HashMap<>();
    WorkerProcess.applyEnvironment(unset);
    assertThat(unset).containsEntry("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "0");

    java.util.Map<String, String> set =
        new java.util.HashMap<>(java.util.Map.of("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "5000"));
    WorkerProcess.applyEnvironment(set);
    assertThat(set).containsEntry("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "5000");
  }

  @Test
  void aWorkerPastItsDeadlineIsKilledAndEveryKnownTargetTimesOut() {
    long t0 = System.nanoTime();
    ProbeRun run = shell("sleep 60").run(REQUEST, Duration.ofMillis(800), List.of("0->1", "1->0"));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("0->1", "1->0");
    assertThat(run.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.TIMEOUT);
              assertThat(t.error())
                  .isEqualTo(
                      "the run did not finish within its deadline of 800ms; the worker was killed");
            });
  }

  @Test
  void aWorkerKilledByASignalIsAnErrorNamingTheSignal() {
    ProbeRun run = shell("kill -SEGV $$").run(REQUEST, Duration.ofSeconds(10), List.of());
    assertThat(run.targets())
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.target()).isEqualTo("p2p");
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error()).isEqualTo("worker died with signal 11 (exit status 139)");
            });
  }

  @Test
  void aWorkerThatExitsWithoutAResultIsAnError() {
    ProbeRun run = shell("exit 3").run(REQUEST, Duration.ofSeconds(10), List.of());
    assertThat(run.targets().get(0).error())
        .isEqualTo("worker exited with status 3 without a result");
  }

  @Test
  void garbageOnStdoutIsAnErrorNotACrash() {
    ProbeRun run = shell("echo not-json").run(REQUEST, Duration.ofSeconds(10), List.of());
    assertThat(run.targets().get(0).outcome()).isEqualTo(Outcome.ERROR);
    assertThat(run.targets().get(0).error()).startsWith("worker output unreadable: ");
  }

  @Test
  void aResultIsReadBackAndARepeatedWarningIsRelayedOnceWithItsLevelAndLogger() throws Exception {
    WorkerProcess worker =
        shell(
            "echo 'WARN  PagePlacement: /proc/self/numa_maps unreadable' >&2; "
                + "echo 'INFO  P2pProbe: measuring' >&2; "
                + "echo '{\"probe\":\"p2p\",\"targets\":[],\"skippedBecause\":\"p2p needs two devices, found 1\"}'");
    for (int i = 0; i < 3; i++) {
      ProbeRun run = worker.run(REQUEST, Duration.ofSeconds(10), List.of());
      assertThat(run.skippedBecause()).isEqualTo("p2p needs two devices, found 1");
    }
    Thread.sleep(200); // the relay thread may still be writing the last lines
    List<String> lines =
        logged.events().stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
            .map(e -> e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage())
            .toList();
    assertThat(lines)
        .filteredOn(m -> m.contains("numa_maps unreadable"))
        .containsExactly(
            "WARN io.linkwatch.worker.PagePlacement: worker p2p: /proc/self/numa_maps unreadable");
    assertThat(lines)
        .filteredOn(m -> m.contains("measuring"))
        .containsOnly("INFO io.linkwatch.worker.P2pProbe: worker p2p: measuring")
        .hasSize(3);
  }
}
