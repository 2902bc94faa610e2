package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.history.SeriesHistory;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code /api/v1/history} document, as a client reads it back. */
class HistoryJsonTest {
  @Test
  void givesTheWindowAndEachSeriesWithItsPointsInBaseUnits() {
    SeriesHistory history = new SeriesHistory(Duration.ofMinutes(5));
    long t0 = 1_764_806_400_000L;
    for (int i = 0; i < 3; i++) {
      history.record(
          ProbeRun.of(
              "allreduce",
              List.of(
                  TargetResult.success(
                      "0,1",
                      0.5,
                      List.of(
                          new AllreduceLatency("0,1", 1024, (270 + i) * 1e-6, 3e-4, 50, 0.01))))),
          false,
          t0 + i * 300_000L);
    }
    JsonObject doc = new JsonObject(HistoryJson.encode(history.view(t0 + 2 * 300_000L)));
    assertThat(doc.getLong("version")).isEqualTo(3);
    assertThat(doc.getLong("step_seconds")).isEqualTo(300);
    assertThat(doc.getLong("end_seconds")).isEqualTo(t0 / 1000 + 900);
    assertThat(doc.getLong("start_seconds")).isEqualTo(t0 / 1000 + 900 - 86_400);
    assertThat(doc.getInteger("series_limit")).isEqualTo(SeriesHistory.MAX_SERIES);
    assertThat(doc.getLong("refused_series")).isZero();
    JsonObject s = doc.getJsonArray("series").getJsonObject(0);
    assertThat(s.fieldNames())
        .containsExactly("id", "probe", "target", "figure", "size_bytes", "unit", "points");
    assertThat(s.getString("id")).isEqualTo("allreduce 0,1 latency_p50 1024");
    assertThat(s.getString("unit")).isEqualTo("seconds");
    JsonArray points = s.getJsonArray("points");
    assertThat(points).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(points.getJsonArray(i).getLong(0)).isEqualTo(t0 / 1000 + i * 300L);
      // Kept as floats: the microseconds to 7 digits.
      assertThat(points.getJsonArray(i).getDouble(1)).isCloseTo((270 + i) * 1e-6, within(1e-10));
    }
  }
}
