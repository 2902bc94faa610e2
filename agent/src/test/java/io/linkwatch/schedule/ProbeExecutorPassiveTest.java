package io.linkwatch.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.passive.ActiveProbes;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.HandClock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Each probe run tells passive watching which devices it measures, for as long as it runs. */
class ProbeExecutorPassiveTest {
  final HandClock clock = new HandClock(ProbeExecutorRetryTest.START);

  @Test
  void targetsNameTheirDevicesAndALabelWithoutDevicesMeansAll() {
    assertThat(ProbeExecutor.devicesOf(List.of("0->1", "2->1"))).containsExactly(0, 1, 2);
    assertThat(ProbeExecutor.devicesOf(List.of("dev3/node1", "0,5"))).containsExactly(0, 3, 5);
    assertThat(ProbeExecutor.devicesOf(List.of("0->1", "links"))).isEmpty();
    assertThat(ProbeExecutor.devicesOf(List.of())).isEmpty();
  }

  @Test
  void aRunIsActiveOnItsKnownTargetsDevicesUntilItEnds() throws Exception {
    AgentConfig config =
        ProbeExecutorLaneBudgetTest.config("", "  p2p: {every: 1h, deadline: 1m}\n");
    ResultStore store = new ResultStore(clock);
    ProbeExecutorLaneBudgetTest.HeldRunner runner = new ProbeExecutorLaneBudgetTest.HeldRunner();
    ActiveProbes active = new ActiveProbes();
    ProbeExecutor executor =
        new ProbeExecutor(
            config, store, runner, new DeviceBudget(clock, 1.0), clock, d -> {}, active);
    // The first run knows no targets yet: it may touch every device.
    runner.release = new CountDownLatch(1);
    Thread first = run(executor, config);
    runner.entered.await();
    assertThat(active.beginRead())
        .get()
        .extracting(ActiveProbes.Measurement::allDevices)
        .isEqualTo(true);
    active.endRead();
    runner.release.countDown();
    first.join(10_000);
    assertThat(active.beginRead()).isEmpty();
    active.endRead();

    // Later runs measure the targets they reported (0->1): only devices 0 and 1.
    ProbeExecutorLaneBudgetTest.HeldRunner second = new ProbeExecutorLaneBudgetTest.HeldRunner();
    second.release = new CountDownLatch(1);
    ProbeExecutor again =
        new ProbeExecutor(
            config, store, second, new DeviceBudget(clock, 1.0), clock, d -> {}, active);
    Thread t = run(again, config);
    second.entered.await();
    ActiveProbes.Measurement m = active.beginRead().orElseThrow();
    active.endRead();
    assertThat(m.probe()).isEqualTo("p2p");
    assertThat(m.devices()).isEqualTo(Set.of(0, 1));
    second.release.countDown();
    t.join(10_000);
    assertThat(active.beginRead()).isEmpty();
    active.endRead();
  }

  private static Thread run(ProbeExecutor executor, AgentConfig config) {
    Thread t =
        new Thread(
            () -> {
              try {
                executor.runOnce(config.probes().get(ProbeKind.P2P));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    t.start();
    return t;
  }
}
