package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.history.SeriesHistory;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.HandClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A 1KiB collective's bus bandwidth on the status page: a real figure, not 0.0 GB/s. */
class SmallBandwidthStatusTest {
  private final HandClock clock = new HandClock(Instant.parse("2026-12-03T12:00:00Z"));
  private final ResultStore store =
      new ResultStore(clock, new SeriesHistory(Duration.ofMinutes(5)));

  private String render() {
    return new StatusPage(io.linkwatch.verdict.Expectations.of(List.of()))
        .render(
            io.linkwatch.state.StatusDocuments.of(store, null, Map.of()),
            new HistoryReferences(store.history(), clock::millis),
            clock.instant(),
            5);
  }

  @Test
  void aOneKibibyteAllreduceShowsItsBusBandwidthWithItsDigits() {
    store.record(
        ProbeRun.of(
            "allreduce",
            List.of(
                TargetResult.success(
                    "0,1", 0.1, List.of(new AllreduceBusBandwidth("0,1", 1024, 3.79e6, 3.79e6))))));

    String page = render();

    assertThat(StatusPageTest.all(page, "<td>([^<]*) GB/s<span class=\"spark\""))
        .containsExactly("0.0038");
    assertThat(page).doesNotContain("0.0 GB/s");
  }
}
