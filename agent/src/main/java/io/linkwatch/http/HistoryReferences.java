package io.linkwatch.http;

import io.linkwatch.history.SeriesHistory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the status page compares a figure with where no expected figure applies: the median of the
 * series' figures in the history but its newest, by series id. Worked out again only when a run is
 * recorded or a new time bucket starts, not per page refresh, and only these medians are kept (the
 * history itself stays the one copy of the figures).
 */
final class HistoryReferences {
  /** The median of a series' earlier figures, and how many there were. */
  record Reference(double median, int figures) {}

  private final SeriesHistory history;
  private final LongSupplier millis;
  private long version = -1;
  private long bucket = -1;
  private Map<String, Reference> references = Map.of();

  HistoryReferences(SeriesHistory history, LongSupplier millis) {
    this.history = history;
    this.millis = millis;
  }

  /** The history's version, which the page carries so that its script fetches on change. */
  /** One bucket of the history: a series has a reference once it has a figure a step back. */
  java.time.Duration step() {
    return history.step();
  }

  long version() {
    return history.version();
  }

  /** By series id; a series with a single figure has none. */
  synchronized Map<String, Reference> get() {
    long now = millis.getAsLong();
    long b = history.bucket(now);
    long v = history.version();
    if (v != version || b != bucket) {
      SeriesHistory.View view = history.view(now);
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
      version = view.version();
      bucket = b;
    }
    return references;
  }
}
