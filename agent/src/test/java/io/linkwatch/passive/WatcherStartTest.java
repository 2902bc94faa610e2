package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.Backend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watcher slower to start than a read round's deadline (a JVM and a driver library on a loaded
 * host) is left to start and then reads; one that never gets ready is killed after the start
 * timeout and named.
 */
class WatcherStartTest {
  private static final Duration ROUND_DEADLINE = Duration.ofMillis(500);

  @TempDir Path dir;

  /** The real watcher on the sim, started {@code delaySeconds} late. */
  private List<String> slowWatcher(int delaySeconds) {
    List<String> cmd =
        new ArrayList<>(List.of("sh", "-c", "sleep " + delaySeconds + "; exec \"$@\"", "sh"));
    cmd.addAll(WatcherProcess.defaultCommand(Backend.SIM, List.of()));
    return cmd;
  }

  private Map<String, String> env() {
    return Map.of("LINKWATCH_SIM_CONTROL", dir.resolve("sim-control").toString());
  }

  @Test
  void aWatcherSlowerToStartThanTheDeadlineIsLeftToStartAndThenReads() throws Exception {
    try (WatcherProcess watcher = new WatcherProcess(slowWatcher(3), env())) {
      List<WatcherProcess.Outcome> waits = new ArrayList<>();
      long pid = -1;
      long until = System.nanoTime() + Duration.ofSeconds(25).toNanos();
      Optional<WatcherProcess.Outcome> notReady;
      while ((notReady = watcher.start(ROUND_DEADLINE)).isPresent() && System.nanoTime() < until) {
        waits.add(notReady.get());
        if (pid == -1) {
          pid = watcher.pid();
        }
      }
      assertThat(notReady).as("ready within 25 s").isEmpty();
      // it was slower than a round's deadline, and every wait said so without killing it
      assertThat(waits).isNotEmpty().allSatisfy(o -> assertThat(o.starting()).isTrue());
      assertThat(waits.get(0).error()).startsWith("the watcher is still starting (");
      assertThat(watcher.pid()).as("the same watcher, not a fresh one").isEqualTo(pid);
      WatcherProcess.Outcome round = watcher.round(List.of(), Duration.ofSeconds(20));
      assertThat(round.round()).as(round.error()).isNotNull();
      assertThat(round.round().readings()).isNotEmpty();
    }
  }

  @Test
  void heldToTheRoundDeadlineTheSameWatcherNeverReads() {
    // what the start timeout prevents: each start killed at the deadline and started again, so
    // a watcher that needs longer than the deadline to start never answers
    try (WatcherProcess watcher = new WatcherProcess(slowWatcher(2), env(), ROUND_DEADLINE)) {
      List<WatcherProcess.Outcome> outcomes = new ArrayList<>();
      long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
      while (System.nanoTime() < until) {
        outcomes.add(watcher.start(ROUND_DEADLINE).orElse(null));
      }
      assertThat(outcomes)
          .hasSizeGreaterThan(3)
          .allSatisfy(
              o -> {
                assertThat(o).as("never ready").isNotNull();
                assertThat(o.result()).isEqualTo("timeout");
                assertThat(o.error()).contains("the start did not finish within its deadline");
              });
    }
  }

  @Test
  void aWatcherThatNeverGetsReadyIsKilledAfterTheStartTimeoutAndNamed() throws Exception {
    List<String> hangs = List.of("sh", "-c", "exec sleep 600");
    try (WatcherProcess watcher = new WatcherProcess(hangs, Map.of(), Duration.ofSeconds(2))) {
      Optional<WatcherProcess.Outcome> first = watcher.start(ROUND_DEADLINE);
      long pid = watcher.pid();
      assertThat(first).hasValueSatisfying(o -> assertThat(o.starting()).isTrue());
      WatcherProcess.Outcome last = first.get();
      long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (last.starting() && System.nanoTime() < until) {
        last = watcher.start(ROUND_DEADLINE).orElseThrow();
      }
      assertThat(last.result()).isEqualTo("timeout");
      assertThat(last.error())
          .contains("the start did not finish within its deadline of 2s")
          .contains("the watcher was killed");
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }
  }
}
