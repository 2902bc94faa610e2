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
}
