package io.linkwatch.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.result.ProbeRun;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the history holds for 8 devices and 8 NUMA nodes under the default config, measured as the
 * bytes this thread allocates (JDK's per-thread counter, so tests running beside it do not count)
 * while the store is built and filled. Its arrays are allocated once per series, so the first fill
 * is what it holds, plus that fill's temporaries; a day of further runs must not allocate them
 * again.
 */
class SeriesHistoryMemoryTest {
  /** The figure the documentation states for 8 devices. */
  static final long STATED_BYTES = 640 * 1024;

  static final long STEP = 300_000;
  static final long T0 = 1_764_806_400_000L;

  static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  static void fill(SeriesHistory h, List<ProbeRun> runs, long at) {
    for (ProbeRun r : runs) {
      h.record(r, false, at);
    }
  }

  @Test
  void eightDevicesTakeWhatTheDocumentationSaysAndADayOfRunsAddsNothing() {
    List<ProbeRun> runs = HistoryRuns.of(8, 8, 1.0);
    List<ProbeRun> slower = HistoryRuns.of(8, 8, 0.9);
    // Warm the code paths on a throwaway store, so class loading is not counted.
    fill(new SeriesHistory(Duration.ofMinutes(5)), runs, T0);

    long before = allocated();
    SeriesHistory h = new SeriesHistory(Duration.ofMinutes(5));
    fill(h, runs, T0);
    long built = allocated() - before;

    assertThat(h.seriesCount())
        .as("56 p2p + 28 bidirectional + 8x8x4 host transfer + 8 local + 2x2x2 collectives")
        .isEqualTo(356);
    System.out.printf(
        "history for 8 devices: %d series, %d bytes (%.0f KiB) allocated to build and fill it%n",
        h.seriesCount(), built, built / 1024.0);
    assertThat(built).isLessThanOrEqualTo(STATED_BYTES);

    // A day and a bit of runs, one per step, round every ring and beyond.
    for (int i = 1; i <= SeriesHistory.BUCKETS + 12; i++) {
      fill(h, i % 2 == 0 ? runs : slower, T0 + i * STEP);
    }
    long start = allocated();
    fill(h, runs, T0 + (SeriesHistory.BUCKETS + 13) * STEP);
    long oneMore = allocated() - start;
    System.out.printf("one fill a day later allocates %d bytes of temporaries%n", oneMore);
    assertThat(h.seriesCount()).isEqualTo(356);
    assertThat(oneMore)
        .as("a fill after a day allocates only temporaries, no series' arrays again")
        .isLessThan(built / 3);
    SeriesHistory.Line line =
        h.view(T0 + (SeriesHistory.BUCKETS + 13) * STEP).lines().stream()
            .filter(l -> l.id().id().equals("p2p 0->1 bandwidth 268435456"))
            .findFirst()
            .orElseThrow();
    assertThat(line.values()).hasSize(SeriesHistory.BUCKETS);
  }
}
