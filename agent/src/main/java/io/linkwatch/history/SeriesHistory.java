package io.linkwatch.history;

import io.linkwatch.probe.result.Charted;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The last {@link #BUCKETS} steps (24 hours at the default 5 minutes) of every charted figure, in
 * memory, for the status page's line charts and {@code /api/v1/history}. It is fed the runs as they
 * are published (no probing of its own), keeps the last figure of each step, and is bounded: one
 * fixed array per series ({@link BucketRing}), at most {@link #MAX_SERIES} series, and a series is
 * dropped when its target leaves its probe's runs or when it has had no figure for a whole window.
 * For 8 devices under the default config that is 356 series (56 ordered p2p pairs, 28 bidirectional
 * pairs, 8 devices x 8 NUMA nodes x pinned/pageable x H2D/D2H, 8 device-local copies, and latency
 * and bus bandwidth at two sizes for allreduce and allgather).
 */
public final class SeriesHistory {
  /** Buckets per series: 24 hours of 5-minute steps. */
  public static final int BUCKETS = 288;

  public static final Duration DEFAULT_STEP = Duration.ofMinutes(5);

  /**
   * Series held at most (16 devices with two sizes of everything stay below it); a new series past
   * it is not charted. At 1.2 KiB or so each this bounds the history near 5 MiB whatever the
   * config.
   */
  public static final int MAX_SERIES = 4096;

  private final long stepMillis;

  /** How long one bucket of the history is (web.history_step). */
  public java.time.Duration step() {
    return java.time.Duration.ofMillis(stepMillis);
  }

  private final int maxSeries;
  private final Map<String, Series> series = new HashMap<>();
  private long version;
  private long refused;

  private record Series(SeriesId id, BucketRing ring) {}

  /** A series' figures in the window a {@link #view} was taken for. */
  public record Line(SeriesId id, long[] bucketStartSeconds, float[] values) {}

  /**
   * The history at one moment: the window {@code [startSeconds, endSeconds)} of Unix seconds, its
   * step, and every series with a figure in it, ordered by id.
   */
  public record View(
      long version,
      long stepSeconds,
      long startSeconds,
      long endSeconds,
      int seriesLimit,
      long refusedSeries,
      List<Line> lines) {}

  public SeriesHistory(Duration step) {
    this(step, MAX_SERIES);
  }

  SeriesHistory(Duration step, int maxSeries) {
    if (step.toMillis() < 1000 || step.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException("the step must be whole seconds, at least 1 s: " + step);
    }
    this.stepMillis = step.toMillis();
    this.maxSeries = maxSeries;
  }

  /**
   * Adds the charted figures of a published run at {@code nowMillis}. A full run (not a {@code
   * retry} of waiting targets) also drops its probe's series whose target it no longer reports, as
   * the result store drops their last results.
   */
  public synchronized void record(ProbeRun run, boolean retry, long nowMillis) {
    long bucket = nowMillis / stepMillis;
    for (TargetResult t : run.targets()) {
      for (Measurement m : t.measurements()) {
        // Only what a person compares over a day is charted (bandwidths, the collectives' median
        // latency), not inventory or page shares: each result type that is says so (Charted).
        if (m instanceof Charted c) {
          c.chart(
              (figure, size, unit, value) ->
                  put(run.probe(), t.target(), figure, size, unit, value, bucket));
        }
      }
    }
    if (!retry && !run.targets().isEmpty()) {
      Set<String> targets = new HashSet<>();
      run.targets().forEach(t -> targets.add(t.target()));
      series
          .values()
          .removeIf(s -> s.id().probe().equals(run.probe()) && !targets.contains(s.id().target()));
    }
    series.values().removeIf(s -> s.ring().newest() <= bucket - BUCKETS);
    version++;
  }

  private void put(
      String probe,
      String target,
      String figure,
      long size,
      String unit,
      double value,
      long bucket) {
    if (!Double.isFinite(value)) {
      return;
    }
    String id = SeriesId.id(probe, target, figure, size);
    Series s = series.get(id);
    if (s == null) {
      if (series.size() >= maxSeries) {
        refused++;
        return;
      }
      s = new Series(new SeriesId(probe, target, figure, size, unit), new BucketRing(BUCKETS));
      series.put(id, s);
    }
    s.ring().put(bucket, value);
  }

  /** Changes whenever a run is recorded. */
  public synchronized long version() {
    return version;
  }

  public synchronized int seriesCount() {
    return series.size();
  }

  /** The bucket {@code nowMillis} falls in: a view changes when it or the version does. */
  public long bucket(long nowMillis) {
    return nowMillis / stepMillis;
  }

  /** Every series with a figure in the window that ends with the bucket of {@code nowMillis}. */
  public synchronized View view(long nowMillis) {
    long now = bucket(nowMillis);
    long first = now - BUCKETS + 1;
    long stepSeconds = stepMillis / 1000;
    Map<String, Series> ordered = new TreeMap<>(series);
    List<Line> lines = new ArrayList<>();
    for (Series s : ordered.values()) {
      int n = 0;
      for (long b = first; b <= now; b++) {
        n += Float.isNaN(s.ring().get(b)) ? 0 : 1;
      }
      if (n == 0) {
        continue;
      }
      long[] times = new long[n];
      float[] values = new float[n];
      int i = 0;
      for (long b = first; b <= now; b++) {
        float v = s.ring().get(b);
        if (!Float.isNaN(v)) {
          times[i] = b * stepSeconds;
          values[i++] = v;
        }
      }
      lines.add(new Line(s.id(), times, values));
    }
    return new View(
        version,
        stepSeconds,
        first * stepSeconds,
        (now + 1) * stepSeconds,
        maxSeries,
        refused,
        List.copyOf(lines));
  }
}
