package io.linkwatch.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.passive.ActiveProbes;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.HandClock;
import io.linkwatch.worker.ProbeRunner;
import io.linkwatch.worker.WorkerRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Retries of targets whose devices were busy, with a clock that the sleeps move. */
class ProbeExecutorRetryTest {
  static final Instant START = Instant.parse("2026-12-01T00:00:00Z");

  /** Answers each run with the next scripted result and remembers what was asked. */
  static final class ScriptedRunner implements ProbeRunner {
    final Deque<List<TargetResult>> script = new ArrayDeque<>();
    final List<List<String>> asked = new ArrayList<>();

    @Override
    public ProbeRun run(WorkerRequest request, Duration deadline, List<String> knownTargets) {
      asked.add(request.targets());
      List<TargetResult> next = script.isEmpty() ? List.of() : script.removeFirst();
      return ProbeRun.of(request.probe(), next);
    }

    @Override
    public void stop() {}
  }

  static TargetResult busy(String target) {
    return TargetResult.failure(target, Outcome.SKIPPED_DEVICE_BUSY, "device 1 is busy: pid 42", 0);
  }

  static TargetResult ok(String target) {
    return TargetResult.success(
        target, 1.0, List.of(new P2pBandwidth(0, 1, "SIO", 1 << 20, 1e11, 1e-5)));
  }

  /** Moves only when the executor sleeps. */
  final HandClock clock = new HandClock(START);

  final ScriptedRunner runner = new ScriptedRunner();
  final List<Duration> slept = new ArrayList<>();

  ProbeExecutor executor(AgentConfig config, ResultStore store) {
    return new ProbeExecutor(
        config,
        store,
        runner,
        new DeviceBudget(clock, 0.5),
        clock,
        d -> {
          slept.add(d);
          clock.now = clock.now.plus(d);
        },
        new ActiveProbes());
  }

  static AgentConfig config(String busy) {
    return ConfigLoader.parse(
        "t.yaml", "backend: sim\n" + busy + "probes:\n  p2p:\n    every: 5m\n    deadline: 1m\n");
  }

  @RegisterExtension
  final io.linkwatch.testing.LogCapture logged =
      new io.linkwatch.testing.LogCapture("io.linkwatch.schedule");

  @Test
  void aRunThatEndedBeforeItKnewItsTargetsIsLoggedWithoutATarget() throws Exception {
    AgentConfig config = config("");
    ResultStore store = new ResultStore(clock);
    ProbeConfig p2p = config.probes().get(ProbeKind.P2P);
    // What a worker stopped with the agent, on the probe's first run, reports.
    runner.script.add(
        List.of(
            TargetResult.failure("p2p", Outcome.ERROR, "interrupted: the agent is stopping", 0.5)));
    runner.script.add(List.of(ok("0->1")));

    ProbeExecutor executor = executor(config, store);
    executor.runScheduled(p2p, START.plus(Duration.ofMinutes(5)));
    executor.runScheduled(p2p, START.plus(Duration.ofMinutes(10)));

    assertThat(logged.events())
        .extracting(e -> e.getFormattedMessage())
        .filteredOn(m -> m.startsWith("probe=p2p"))
        .satisfiesExactly(
            m ->
                assertThat(m)
                    .startsWith("probe=p2p targets=unknown result=error")
                    .contains("interrupted: the agent is stopping")
                    .doesNotContain("target=p2p"),
            m -> assertThat(m).startsWith("probe=p2p target=0->1 result=success"));
  }

  @Test
  void aSkippedTargetIsRetriedAloneUntilItsDeviceIsIdle() throws Exception {
    AgentConfig config = config("busy:\n  retry: 30s\n");
    ResultStore store = new ResultStore(clock);
    ProbeConfig p2p = config.probes().get(ProbeKind.P2P);
    runner.script.add(List.of(ok("0->2"), busy("0->1")));
    runner.script.add(List.of(busy("0->1")));
    runner.script.add(List.of(busy("0->1")));
    runner.script.add(List.of(ok("0->1")));

    executor(config, store).runScheduled(p2p, START.plus(Duration.ofMinutes(5)));

    // The scheduled run asks for every target; each retry only for the one that waits.
    assertThat(runner.asked)
        .containsExactly(List.of(), List.of("0->1"), List.of("0->1"), List.of("0->1"));
    assertThat(slept).containsOnly(Duration.ofSeconds(30)).hasSize(3);
    assertThat(store.deferredTargets("p2p")).isEmpty();
    assertThat(store.runCounts())
        .containsEntry(new ResultStore.RunKey("p2p", "0->1", Outcome.SKIPPED_DEVICE_BUSY), 3L)
        .containsEntry(new ResultStore.RunKey("p2p", "0->1", Outcome.SUCCESS), 1L)
        .containsEntry(new ResultStore.RunKey("p2p", "0->2", Outcome.SUCCESS), 1L);
    // The target measured by the scheduled run keeps its result through the retries.
    assertThat(store.statuses())
        .filteredOn(s -> s.target().equals("0->2"))
        .singleElement()
        .satisfies(s -> assertThat(s.succeeded()).isTrue());
  }

  @Test
  void retriesStopWhenTheNextScheduledRunWouldComeFirst() throws Exception {
    AgentConfig config = config("busy:\n  retry: 1m\n");
    ResultStore store = new ResultStore(clock);
    ProbeConfig p2p = config.probes().get(ProbeKind.P2P);
    for (int i = 0; i < 20; i++) {
      runner.script.add(List.of(busy("0->1")));
    }

    executor(config, store).runScheduled(p2p, START.plus(Duration.ofMinutes(5)));

    // Retries at +1m .. +4m (these runs take no time, so the margin is the 1 s of headroom); one
    // at +5m would collide with the scheduled run.
    assertThat(runner.asked).hasSize(5);
    assertThat(clock.now).isEqualTo(START.plus(Duration.ofMinutes(4)));
    assertThat(store.deferredTargets("p2p")).containsExactly("0->1");
  }

  @Test
  void aRetryTakesAnotherProbesFreshFindingInsteadOfStartingAWorker() throws Exception {
    AgentConfig config = config("busy:\n  retry: 30s\n");
    ResultStore store = new ResultStore(clock);
    ProbeConfig p2p = config.probes().get(ProbeKind.P2P);
    // device_memory's worker found device 1 busy 10 s before p2p's first retry is due.
    clock.now = START;
    Runnable deviceMemorySawDevice1Busy =
        () ->
            store.record(
                new ProbeRun(
                    "device_memory",
                    List.of(busy("dev1")),
                    "",
                    List.of(
                        new DeviceActivity(
                            1,
                            true,
                            "dcmi",
                            List.of(new BusyReason(BusyReason.Kind.PROCESS, "pid 42 holds 1GiB")),
                            List.of(),
                            Map.of(),
                            null,
                            clock.millis() + 20_000)),
                    List.of()));
    deviceMemorySawDevice1Busy.run();
    runner.script.add(List.of(busy("0->1"), ok("0->2")));
    runner.script.add(List.of(ok("0->1")));

    executor(config, store).runScheduled(p2p, START.plus(Duration.ofMinutes(5)));

    // First retry (+30 s): device_memory's finding of +20 s answers it, no worker. Second
    // retry (+60 s): that finding is older than the retry period, so a worker checks again.
    assertThat(runner.asked).containsExactly(List.of(), List.of("0->1"));
    assertThat(store.runCounts())
        .containsEntry(new ResultStore.RunKey("p2p", "0->1", Outcome.SKIPPED_DEVICE_BUSY), 2L);
    assertThat(store.deferredTargets("p2p")).isEmpty();
    // A probe never takes its own earlier finding as fresh: device_memory would start a worker.
    assertThat(store.busySeenByOthers("device_memory", START.toEpochMilli())).isEmpty();
    assertThat(store.busySeenByOthers("p2p", START.toEpochMilli())).containsOnlyKeys(1);
  }

  @Test
  void underPolicyIgnoreNothingIsRetried() throws Exception {
    AgentConfig config = config("busy:\n  policy: ignore\n");
    ResultStore store = new ResultStore(clock);
    runner.script.add(List.of(busy("0->1")));

    executor(config, store)
        .runScheduled(config.probes().get(ProbeKind.P2P), START.plus(Duration.ofMinutes(5)));

    assertThat(runner.asked).hasSize(1);
    assertThat(slept).isEmpty();
  }
}
