package io.linkwatch.http;

import io.linkwatch.history.SeriesHistory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The history as the HTTP side serves it, worked out once per change: a new run or a new time
 * bucket. Every page refresh needs the series' reference figures and every chart the same document,
 * so neither is rebuilt per request (the event loop that serves {@code /metrics} does this work).
 *
 * <pre>
 * {"version": 42, "step_seconds": 300, "start_seconds": 1764720000, "end_seconds": 1764806400,
 *  "series_limit": 4096, "refused_series": 0,
 *  "series": [{"id": "p2p 0->1 bandwidth 268435456", "probe": "p2p", "target": "0->1",
 *              "figure": "bandwidth", "size_bytes": 268435456, "unit": "bytes_per_second",
 *              "points": [[1764805800, 1.873E11], [1764806100, 1.869E11]]}]}
 * </pre>
 */
final class HistoryCache {
  /** What a figure is compared with when no expected figure applies. */
  record Reference(double median, int figures) {}

  private final SeriesHistory history;
  private final LongSupplier millis;
  private long version = -1;
  private long bucket = -1;
  private SeriesHistory.View view;
  private Map<String, Reference> references;
  private String json;

  HistoryCache(SeriesHistory history, LongSupplier millis) {
    this.history = history;
    this.millis = millis;
  }

  /** The history's version that the page is rendered with, so its script fetches on change. */
  synchronized long version() {
    refresh();
    return view.version();
  }

  /**
   * Each series' median over its figures in the window but the newest one, by id; a series with one
   * figure has none.
   */
  synchronized Map<String, Reference> references() {
    refresh();
    if (references == null) {
      Map<String, Reference> out = new HashMap<>();
      for (SeriesHistory.Line l : view.lines()) {
        int n = l.values().length - 1;
        if (n > 0) {
          float[] before = Arrays.copyOf(l.values(), n);
          Arrays.sort(before);
          double median =
              n % 2 == 1 ? before[n / 2] : ((double) before[n / 2 - 1] + before[n / 2]) / 2;
          out.put(l.id().id(), new Reference(median, n));
        }
      }
      references = Map.copyOf(out);
    }
    return references;
  }

  /** The {@code /api/v1/history} document. */
  synchronized String json() {
    refresh();
    if (json == null) {
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
      json =
          new JsonObject()
              .put("version", view.version())
              .put("step_seconds", view.stepSeconds())
              .put("start_seconds", view.startSeconds())
              .put("end_seconds", view.endSeconds())
              .put("series_limit", view.seriesLimit())
              .put("refused_series", view.refusedSeries())
              .put("series", series)
              .encode();
    }
    return json;
  }

  private void refresh() {
    long now = millis.getAsLong();
    long b = history.bucket(now);
    long v = history.version();
    if (view == null || v != version || b != bucket) {
      view = history.view(now);
      version = view.version();
      bucket = b;
      references = null;
      json = null;
    }
  }
}
