package io.linkwatch.http;

import io.linkwatch.history.SeriesHistory;
import io.linkwatch.util.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
  /** The status document's JSON style (snake_case fields), without its tagged figures. */
  private static final Json JSON = Json.snakeCase(Set.of(), Map.of());

  private HistoryJson() {}

  /** One series: what it is, and its {@code [bucket start, figure]} points. */
  record Series(
      String id,
      String probe,
      String target,
      String figure,
      long sizeBytes,
      String unit,
      List<List<Number>> points) {}

  /** The whole document, in the order of its fields here. */
  record Document(
      long version,
      long stepSeconds,
      long startSeconds,
      long endSeconds,
      int seriesLimit,
      long refusedSeries,
      List<Series> series) {}

  static Document of(SeriesHistory.View view) {
    List<Series> series = new ArrayList<>();
    for (SeriesHistory.Line l : view.lines()) {
      List<List<Number>> points = new ArrayList<>();
      for (int i = 0; i < l.values().length; i++) {
        // A float prints its shortest form (1.873E11), not the double it widens to.
        points.add(List.of(l.bucketStartSeconds()[i], l.values()[i]));
      }
      series.add(
          new Series(
              l.id().id(),
              l.id().probe(),
              l.id().target(),
              l.id().figure(),
              l.id().sizeBytes(),
              l.id().unit(),
              points));
    }
    return new Document(
        view.version(),
        view.stepSeconds(),
        view.startSeconds(),
        view.endSeconds(),
        view.seriesLimit(),
        view.refusedSeries(),
        series);
  }

  /** The document as {@code /api/v1/history} serves it, compact. */
  static String encode(SeriesHistory.View view) {
    return JSON.write(of(view));
  }
}
