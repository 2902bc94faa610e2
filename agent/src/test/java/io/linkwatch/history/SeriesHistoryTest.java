package io.linkwatch.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesHistoryTest {
  static final long STEP = 300_000;
  static final long T0 = 1_764_806_400_000L;

  static ProbeRun p2p(double... gbpsPerPair) {
    List<TargetResult> targets =
        java.util.stream.IntStream.range(0, gbpsPerPair.length)
            .mapToObj(
                i ->
                    HistoryRuns.ok(
                        "0->" + (i + 1),
                        new P2pBandwidth(0, i + 1, "SIO", 1 << 20, gbpsPerPair[i] * 1e9, 1e-3)))
            .toList();
    return ProbeRun.of("p2p", targets);
  }

  static SeriesHistory.Line line(SeriesHistory.View view, String id) {
    return view.lines().stream().filter(l -> l.id().id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void keepsTheLastFigureOfEachStepOverTheWindowWithItsBucketStart() {
    SeriesHistory h = new SeriesHistory(Duration.ofMinutes(5));
    h.record(p2p(100), false, T0);
    h.record(p2p(110), false, T0 + 60_000);
    h.record(p2p(120), false, T0 + STEP);
    h.record(p2p(90), false, T0 + 3 * STEP + 1);
    SeriesHistory.View view = h.view(T0 + 3 * STEP + 2);
    assertThat(view.stepSeconds()).isEqualTo(300);
    assertThat(view.endSeconds()).isEqualTo(T0 / 1000 + 4 * 300);
    assertThat(view.endSeconds() - view.startSeconds()).isEqualTo(24 * 3600);
    SeriesHistory.Line l = line(view, "p2p 0->1 bandwidth 1048576");
    assertThat(l.id().unit()).isEqualTo("bytes_per_second");
    assertThat(l.bucketStartSeconds()).containsExactly(T0 / 1000, T0 / 1000 + 300, T0 / 1000 + 900);
    assertThat(l.values()).containsExactly(110e9f, 120e9f, 90e9f);
    assertThat(view.version()).isEqualTo(4);
  }

  @Test
  void forgetsFiguresOlderThanTheWindowAndSeriesWithNoneLeft() {
    SeriesHistory h = new SeriesHistory(Duration.ofMinutes(5));
    h.record(p2p(100, 50), false, T0);
    // A day later only 0->1 is measured (0->2 failed): 0->2 keeps its target, so its series
    // stays until its last figure leaves the window.
    ProbeRun later =
        ProbeRun.of(
            "p2p",
            List.of(
                p2p(101).targets().get(0),
                TargetResult.failure(
                    "0->2", Outcome.ERROR, "aclrtMemcpyAsync returned 507899", 1)));
    h.record(later, false, T0 + (SeriesHistory.BUCKETS - 1) * STEP);
    assertThat(h.view(T0 + (SeriesHistory.BUCKETS - 1) * STEP).lines()).hasSize(2);
    h.record(later, false, T0 + SeriesHistory.BUCKETS * STEP);
    SeriesHistory.View view = h.view(T0 + SeriesHistory.BUCKETS * STEP);
    assertThat(view.lines()).extracting(l -> l.id().target()).containsExactly("0->1");
    assertThat(line(view, "p2p 0->1 bandwidth 1048576").values()).containsExactly(101e9f, 101e9f);
    assertThat(h.seriesCount()).isEqualTo(1);
  }

  @Test
  void aFullRunDropsTheSeriesOfTargetsItNoLongerHasARetryDoesNot() {
    SeriesHistory h = new SeriesHistory(Duration.ofMinutes(5));
    h.record(p2p(100, 50), false, T0);
    h.record(p2p(100), true, T0 + 1000);
    assertThat(h.seriesCount()).isEqualTo(2);
    h.record(p2p(100), false, T0 + 2000);
    assertThat(h.view(T0 + 2000).lines())
        .extracting(l -> l.id().id())
        .containsExactly("p2p 0->1 bandwidth 1048576");
  }

  @Test
  void chartsBandwidthsAndLatenciesNotInventoryAndRefusesSeriesPastTheLimit() {
    SeriesHistory h = new SeriesHistory(Duration.ofMinutes(5), 3);
    h.record(
        ProbeRun.of(
            "topology",
            List.of(
                HistoryRuns.ok("dev0", new DeviceInfo(0, "Ascend910", null, null, "", 1L << 36)))),
        false,
        T0);
    assertThat(h.seriesCount()).isZero();
    h.record(p2p(1, 2, 3, 4, 5), false, T0);
    SeriesHistory.View view = h.view(T0);
    assertThat(view.lines()).hasSize(3);
    assertThat(view.seriesLimit()).isEqualTo(3);
    assertThat(view.refusedSeries()).isEqualTo(2);
  }

  @Test
  void theStepIsWholeSeconds() {
    assertThatThrownBy(() -> new SeriesHistory(Duration.ofMillis(1500)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
