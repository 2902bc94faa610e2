package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ActiveProbesTest {
  @Test
  void aReadRoundSeesTheProbeRunAndItsDevices() throws Exception {
    ActiveProbes a = new ActiveProbes();
    assertThat(a.beginRead()).isEmpty();
    a.endRead();
    a.begin("p2p", Set.of(0, 1));
    ActiveProbes.Measurement m = a.beginRead().orElseThrow();
    a.endRead();
    assertThat(m.measures(1)).isTrue();
    assertThat(m.measures(2)).isFalse();
    a.end();
    assertThat(a.beginRead()).isEmpty();
    a.endRead();
  }

  @Test
  void aProbeRunWaitsForTheReadRoundInProgress() throws Exception {
    ActiveProbes a = new ActiveProbes();
    a.beginRead();
    CompletableFuture<Void> probe =
        CompletableFuture.runAsync(
            () -> {
              try {
                a.begin("p2p", Set.of());
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(200);
    assertThat(probe).isNotDone();
    a.endRead();
    probe.get(5, TimeUnit.SECONDS);
    assertThat(a.beginRead().orElseThrow().allDevices()).isTrue();
  }

  @Test
  void aReadRoundWaitsForTheProbeRunToEndUpToItsBound() throws Exception {
    ActiveProbes a = new ActiveProbes();
    a.begin("topology", Set.of());
    CompletableFuture<java.util.Optional<ActiveProbes.Measurement>> round =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return a.beginRead(java.time.Duration.ofSeconds(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(200);
    assertThat(round).isNotDone();
    a.end();
    assertThat(round.get(5, TimeUnit.SECONDS)).isEmpty();
    a.endRead();

    // A run longer than the bound: the round goes ahead and leaves its devices out.
    a.begin("p2p", Set.of(0, 1));
    long started = System.nanoTime();
    ActiveProbes.Measurement m = a.beginRead(java.time.Duration.ofMillis(300)).orElseThrow();
    assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(300_000_000L);
    assertThat(m.devices()).containsExactlyInAnyOrder(0, 1);
    a.endRead();
  }
}
