package io.linkwatch.http;

import io.linkwatch.history.SeriesHistory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The {@code /api/v1/history} document: the window in Unix seconds, and each series with its points
 * as {@code [bucket start, figure]} pairs (as Prometheus' range queries give them), oldest first,
 * buckets without a figure left out.
 *
 * <pre>
 * {"version": 42, "step_seconds": 300, "start_seconds": 1764720000, "end_seconds": 1764806400,
 *  "series_limit": 4096, "refused_series": 0,
 *  "series": [{"id": "p2p 0->1 bandwidth 268435456", "probe": "p2p", "target": "0->1",
 *              "figure": "bandwidth", "size_bytes": 268435456, "unit": "bytes_per_second",
 *              "points": [[1764805800, 1.873E11], [1764806100, 1.869E11]]}]}
 * </pre>
 */
final class HistoryJson {
  private HistoryJson() {}

  static JsonObject of(SeriesHistory.View view) {
    JsonArray series = new JsonArray();
    for (SeriesHistory.Line l : view.lines()) {
      JsonArray points = new JsonArray();
      for (int i = 0; i < l.values().length; i++) {
        // A float prints its shortest form (1.873E11), not the double it widens to.
        points.add(new JsonArray().add(l.bucketStartSeconds()[i]).add(l.values()[i]));
      }
      series.add(
          new JsonObject()
              .put("id", l.id().id())
              .put("probe", l.id().probe())
              .put("target", l.id().target())
              .put("figure", l.id().figure())
              .put("size_bytes", l.id().sizeBytes())
              .put("unit", l.id().unit())
              .put("points", points));
    }
    return new JsonObject()
        .put("version", view.version())
        .put("step_seconds", view.stepSeconds())
        .put("start_seconds", view.startSeconds())
        .put("end_seconds", view.endSeconds())
        .put("series_limit", view.seriesLimit())
        .put("refused_series", view.refusedSeries())
        .put("series", series);
  }
}
