package io.linkwatch.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.passive.ActiveProbes;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.HandClock;
import io.linkwatch.worker.ProbeRunner;
import io.linkwatch.worker.WorkerRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The one lane of device work and the device-time budget. The worker is a stand-in that holds the
 * lane as long as the test says (the real one is a child process, exercised in the live tests).
 */
class ProbeExecutorLaneBudgetTest {
  final HandClock clock = new HandClock(ProbeExecutorRetryTest.START);

  /** A worker that waits for {@code release} (if any), then answers {@code outcome}. */
  static final class HeldRunner implements ProbeRunner {
    final CountDownLatch entered = new CountDownLatch(1);
    volatile CountDownLatch release;
    volatile Outcome outcome = Outcome.SUCCESS;
    volatile long holdMillis;
    final AtomicInteger runs = new AtomicInteger();

    @Override
    public ProbeRun run(WorkerRequest request, Duration deadline, List<String> knownTargets) {
      runs.incrementAndGet();
      entered.countDown();
      try {
        if (release != null) {
          release.await(10, TimeUnit.SECONDS);
        }
        Thread.sleep(holdMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      TargetResult t =
          outcome == Outcome.SUCCESS
              ? TargetResult.success(
                  "0->1", 0.1, List.of(new P2pBandwidth(0, 1, "SIO", 1 << 20, 1e11, 1e-5)))
              : TargetResult.failure("0->1", outcome, "device 1 is busy: pid 42", 0);
      return ProbeRun.of(request.probe(), List.of(t));
    }

    @Override
    public void stop() {}
  }

  static AgentConfig config(String top, String probes) {
    return ConfigLoader.parse("t.yaml", "backend: sim\n" + top + "probes:\n" + probes);
  }

  static long count(ResultStore store, String probe, Outcome outcome) {
    return store.runCounts().entrySet().stream()
        .filter(e -> e.getKey().probe().equals(probe) && e.getKey().result() == outcome)
        .mapToLong(e -> e.getValue())
        .sum();
  }

  @Test
  void aProbeThatFindsTheLaneTakenWaitsUpToIntervalMinusDeadlineThenSkips() throws Exception {
    // device_memory may wait 1 s - 800 ms = 200 ms for the lane.
    AgentConfig config =
        config(
            "",
            "  p2p: {every: 1h, deadline: 1m}\n  device_memory: {every: 1s, deadline: 800ms}\n");
    ResultStore store = new ResultStore(clock);
    HeldRunner runner = new HeldRunner();
    runner.release = new CountDownLatch(1);
    ProbeExecutor executor =
        new ProbeExecutor(config, store, runner, new DeviceBudget(clock, 1.0), new ActiveProbes());
    Thread holder =
        new Thread(
            () -> {
              try {
                executor.runOnce(config.probes().get(ProbeKind.P2P));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    holder.start();
    assertThat(runner.entered.await(5, TimeUnit.SECONDS)).isTrue();

    long started = System.nanoTime();
    executor.runOnce(config.probes().get(ProbeKind.DEVICE_MEMORY));
    long waitedMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(waitedMillis).as("waited for the lane").isGreaterThanOrEqualTo(190);
    assertThat(count(store, "device_memory", Outcome.SKIPPED_BUSY)).isEqualTo(1);
    assertThat(runner.runs).hasValue(1);
    runner.release.countDown();
    holder.join(5000);
    assertThat(count(store, "p2p", Outcome.SUCCESS)).isEqualTo(1);
  }

  @Test
  void aProbeThatFindsTheLaneFreedInTimeRuns() throws Exception {
    AgentConfig config =
        config(
            "", "  p2p: {every: 1h, deadline: 1m}\n  device_memory: {every: 1m, deadline: 30s}\n");
    ResultStore store = new ResultStore(clock);
    HeldRunner runner = new HeldRunner();
    runner.holdMillis = 300;
    ProbeExecutor executor =
        new ProbeExecutor(config, store, runner, new DeviceBudget(clock, 1.0), new ActiveProbes());
    Thread holder =
        new Thread(
            () -> {
              try {
                executor.runOnce(config.probes().get(ProbeKind.P2P));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    holder.start();
    assertThat(runner.entered.await(5, TimeUnit.SECONDS)).isTrue();

    executor.runOnce(config.probes().get(ProbeKind.DEVICE_MEMORY));

    holder.join(5000);
    assertThat(runner.runs).hasValue(2);
    assertThat(count(store, "device_memory", Outcome.SKIPPED_BUSY)).isZero();
    assertThat(count(store, "device_memory", Outcome.SUCCESS)).isEqualTo(1);
  }

  @Test
  void aSpentBudgetSkipsRunsUntilTheHourMovesOn() throws Exception {
    AgentConfig config = config("budget: 0.05\n", "  p2p: {every: 5m, deadline: 1m}\n");
    ResultStore store = new ResultStore(clock);
    HeldRunner runner = new HeldRunner();
    DeviceBudget budget = new DeviceBudget(clock, config.budget());
    ProbeExecutor executor = new ProbeExecutor(config, store, runner, budget, new ActiveProbes());
    ProbeConfig p2p = config.probes().get(ProbeKind.P2P);
    budget.spent(Duration.ofMinutes(4)); // 4 of the 3 minutes an hour 0.05 allows

    executor.runOnce(p2p);
    assertThat(runner.runs).hasValue(0);
    assertThat(count(store, "p2p", Outcome.SKIPPED_BUDGET)).isEqualTo(1);

    clock.now = clock.now.plus(Duration.ofMinutes(61));
    executor.runOnce(p2p);
    assertThat(runner.runs).hasValue(1);
    assertThat(count(store, "p2p", Outcome.SUCCESS)).isEqualTo(1);
  }

  @Test
  void onlyRunsThatReachedTheDevicesAreChargedToTheBudget() throws Exception {
    // 0.0001 of an hour is 360 ms: one 500 ms run that reached the devices spends it all.
    AgentConfig config = config("budget: 0.0001\n", "  p2p: {every: 5m, deadline: 1m}\n");
    ResultStore store = new ResultStore(clock);
    HeldRunner runner = new HeldRunner();
    runner.holdMillis = 500;
    ProbeExecutor executor =
        new ProbeExecutor(
            config, store, runner, new DeviceBudget(clock, config.budget()), new ActiveProbes());
    ProbeConfig p2p = config.probes().get(ProbeKind.P2P);

    runner.outcome = Outcome.SKIPPED_DEVICE_BUSY; // found its device busy: no device time used
    executor.runOnce(p2p);
    executor.runOnce(p2p);
    assertThat(runner.runs).hasValue(2);

    runner.outcome = Outcome.SUCCESS;
    executor.runOnce(p2p);
    executor.runOnce(p2p);
    assertThat(runner.runs).as("the run after a measured one is refused").hasValue(3);
    assertThat(count(store, "p2p", Outcome.SKIPPED_BUDGET)).isEqualTo(1);
  }
}
