package io.linkwatch.metrics.families;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The families of one scrape, filled by the {@link MetricWriter}s and turned into client_java
 * snapshots at the end. A family with no data points is left out of the exposition, so a probe that
 * is switched off or has not run yet has no series at all.
 */
public final class MetricFamilies {
  /** Appended to the HELP of every family whose values are figures of the last probe run. */
  static final String LAST_RUN = " Values come from the last probe run.";

  private final Map<String, Supplier<MetricSnapshot>> families = new LinkedHashMap<>();
  private final Map<String, Gauge> gauges = new LinkedHashMap<>();
  private final Map<String, InfoSnapshot.Builder> infos = new LinkedHashMap<>();
  private final Map<String, Summary> summaries = new LinkedHashMap<>();

  /** Data points of one gauge family, in the order they were added. */
  public static final class Gauge {
    private final GaugeSnapshot.Builder builder;
    private boolean empty = true;

    private Gauge(String name, String help, Unit unit) {
      builder = GaugeSnapshot.builder().name(name).help(help);
      if (unit != null) {
        builder.unit(unit);
      }
    }

    /** Adds a point; {@code labels} are name, value, name, value, ... */
    public void add(double value, String... labels) {
      builder.dataPoint(
          GaugeDataPointSnapshot.builder().labels(Labels.of(labels)).value(value).build());
      empty = false;
    }
  }

  /** Data points of one summary family: quantiles with their count and sum. */
  public static final class Summary {
    private final SummarySnapshot.Builder builder;
    private boolean empty = true;

    private Summary(String name, String help, Unit unit) {
      builder = SummarySnapshot.builder().name(name).help(help).unit(unit);
    }

    public void add(double p50, double p99, long count, double sum, String... labels) {
      builder.dataPoint(
          SummaryDataPointSnapshot.builder()
              .labels(Labels.of(labels))
              .quantiles(Quantiles.of(new Quantile(0.5, p50), new Quantile(0.99, p99)))
              .count(count)
              .sum(sum)
              .build());
      empty = false;
    }
  }

  /** The gauge family {@code name}, created with {@code help} and {@code unit} on first use. */
  public Gauge gauge(String name, String help, Unit unit) {
    return gauges.computeIfAbsent(
        name,
        n -> {
          Gauge g = new Gauge(n, help, unit);
          families.put(n, () -> g.empty ? null : g.builder.build());
          return g;
        });
  }

  /**
   * A counter family {@code name} ({@code _total} is appended on exposition) with one point per
   * entry of {@code counts}; {@code labels} turns a key into name, value, name, value, ... Left out
   * when {@code counts} is empty.
   */
  public <K> void counter(
      String name, String help, Map<K, Long> counts, Function<K, String[]> labels) {
    if (counts.isEmpty()) {
      return;
    }
    CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
    counts.forEach(
        (key, count) ->
            b.dataPoint(
                CounterDataPointSnapshot.builder()
                    .labels(Labels.of(labels.apply(key)))
                    .value(count)
                    .build()));
    add(b.build());
  }

  /** A gauge family whose values are figures of the last run, and whose HELP says so. */
  public Gauge result(String name, String help, Unit unit) {
    return gauge(name, help + LAST_RUN, unit);
  }

  /** A summary family of the last run's figures. */
  public Summary resultSummary(String name, String help, Unit unit) {
    return summaries.computeIfAbsent(
        name,
        n -> {
          Summary s = new Summary(n, help + LAST_RUN, unit);
          families.put(n, () -> s.empty ? null : s.builder.build());
          return s;
        });
  }

  /** One point of the info family {@code name} ({@code _info} is appended on exposition). */
  public void info(String name, String help, String... labels) {
    infos
        .computeIfAbsent(
            name,
            n -> {
              InfoSnapshot.Builder b = InfoSnapshot.builder().name(n).help(help);
              families.put(n, b::build);
              return b;
            })
        .dataPoint(InfoDataPointSnapshot.builder().labels(Labels.of(labels)).build());
  }

  /** Adds a family built elsewhere (a counter, say). */
  public void add(MetricSnapshot snapshot) {
    families.put(snapshot.getMetadata().getName(), () -> snapshot);
  }

  public List<MetricSnapshot> snapshots() {
    List<MetricSnapshot> out = new ArrayList<>();
    for (Supplier<MetricSnapshot> f : families.values()) {
      MetricSnapshot s = f.get();
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** {@code labels} (name, value pairs) with one more pair at the end. */
  public static String[] withLabel(String[] labels, String name, String value) {
    String[] out = java.util.Arrays.copyOf(labels, labels.length + 2);
    out[labels.length] = name;
    out[labels.length + 1] = value;
    return out;
  }
}
