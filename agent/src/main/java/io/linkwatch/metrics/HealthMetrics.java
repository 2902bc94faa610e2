package io.linkwatch.metrics;

import io.linkwatch.config.SeriesSettings.ProbeHealth;
import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.TargetStatus;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every probe's health, per target (or per probe, {@code series.probe_health: per_probe}), whatever
 * it measures, e.g.
 *
 * <pre>
 * linkwatch_probe_success{probe="p2p",target="0->1"} 1.0
 * linkwatch_probe_runs_total{probe="p2p",result="skipped_device_busy",target="0->1"} 3.0
 * linkwatch_probe_interval_seconds{probe="p2p"} 300.0
 * linkwatch_probe_failed_call_info{call="aclrtSynchronizeStream",probe="p2p",target="0->1"} 1.0
 * linkwatch_driver_tolerated_failures_total{call="aclrtResetDevice",probe="p2p"} 2.0
 * </pre>
 */
final class HealthMetrics {
  static final String SUCCESS = "linkwatch_probe_success";
  static final String DURATION = "linkwatch_probe_duration_seconds";
  static final String LAST_SUCCESS = "linkwatch_probe_last_success_timestamp_seconds";
  static final String DEFERRED = "linkwatch_probe_deferred";
  static final String DEFERRED_SINCE = "linkwatch_probe_deferred_since_timestamp_seconds";
  static final String DEFERRED_ALERT_AFTER = "linkwatch_probe_deferred_alert_after_seconds";
  static final String INTERVAL = "linkwatch_probe_interval_seconds";

  /** An info family: the exposition appends {@code _info}. */
  static final String FAILED_CALL = "linkwatch_probe_failed_call";

  /** A counter: the exposition appends {@code _total}. */
  static final String TOLERATED = "linkwatch_driver_tolerated_failures";

  /** A counter: the exposition appends {@code _total}. */
  static final String RUNS = "linkwatch_probe_runs";

  /** A counter: the exposition appends {@code _total}. */
  static final String DEVICE_SECONDS = "linkwatch_probe_device_seconds";

  private HealthMetrics() {}

  static void write(List<TargetStatus> statuses, ProbeHealth health, MetricFamilies f) {
    MetricFamilies.Gauge success =
        f.gauge(
            SUCCESS,
            "1 if the probe's last run for the target succeeded (per probe: for every target).",
            null);
    MetricFamilies.Gauge duration =
        f.gauge(
            DURATION,
            "Wall time of the probe's last run for the target (per probe: the longest).",
            Unit.SECONDS);
    MetricFamilies.Gauge lastSuccess =
        f.gauge(
            LAST_SUCCESS,
            "Unix time of the probe's last successful run for the target (per probe: the oldest).",
            null);
    MetricFamilies.Gauge deferred =
        f.gauge(
            DEFERRED,
            "1 while the target waits for an idle device: its last try was skipped or discarded"
                + " because a device it needs ran other work (per probe: any target).",
            null);
    MetricFamilies.Gauge deferredSince =
        f.gauge(
            DEFERRED_SINCE,
            "Unix time the target's current wait for an idle device began (per probe: the"
                + " earliest).",
            null);
    for (TargetStatus s : statuses) {
      // Per target in both modes: it exists only while a target fails, and names it.
      if (!s.succeeded() && !s.call().isEmpty()) {
        f.info(
            FAILED_CALL,
            "The driver call the target's last run failed in (returned an error, hung or"
                + " crashed); absent when it succeeded or the failure was in no call.",
            "probe",
            s.probe(),
            "target",
            s.target(),
            "call",
            s.call());
      }
    }
    for (Health h : health == ProbeHealth.PER_PROBE ? perProbe(statuses) : perTarget(statuses)) {
      success.add(h.succeeded() ? 1 : 0, h.labels());
      duration.add(h.durationSeconds(), h.labels());
      if (h.lastSuccessEpochSeconds() > 0) {
        lastSuccess.add(h.lastSuccessEpochSeconds(), h.labels());
      }
      deferred.add(h.deferredSinceEpochSeconds() > 0 ? 1 : 0, h.labels());
      if (h.deferredSinceEpochSeconds() > 0) {
        deferredSince.add(h.deferredSinceEpochSeconds(), h.labels());
      }
    }
  }

  /** One set of health series: a target's, or a probe's targets folded into their worst. */
  private record Health(
      String[] labels,
      boolean succeeded,
      double durationSeconds,
      double lastSuccessEpochSeconds,
      double deferredSinceEpochSeconds) {}

  private static List<Health> perTarget(List<TargetStatus> statuses) {
    List<Health> out = new ArrayList<>();
    for (TargetStatus s : statuses) {
      out.add(
          new Health(
              new String[] {"probe", s.probe(), "target", s.target()},
              s.succeeded(),
              s.durationSeconds(),
              s.lastSuccessEpochSeconds(),
              s.deferredSinceEpochSeconds()));
    }
    return out;
  }

  /**
   * Each probe's targets folded into the worst: succeeded only if every target's last run did, the
   * longest run, the oldest last success (absent until every target has one: a target that never
   * succeeded is the failing alert's, as it is per target), the earliest wait that still goes on.
   */
  private static List<Health> perProbe(List<TargetStatus> statuses) {
    Map<String, List<TargetStatus>> byProbe = new TreeMap<>();
    statuses.forEach(s -> byProbe.computeIfAbsent(s.probe(), p -> new ArrayList<>()).add(s));
    List<Health> out = new ArrayList<>();
    byProbe.forEach(
        (probe, targets) -> {
          boolean everySucceeded = targets.stream().allMatch(TargetStatus::succeeded);
          double longest =
              targets.stream().mapToDouble(TargetStatus::durationSeconds).max().orElse(0);
          boolean everyHasSuccess = targets.stream().allMatch(t -> t.lastSuccessEpochSeconds() > 0);
          double oldest =
              everyHasSuccess
                  ? targets.stream()
                      .mapToDouble(TargetStatus::lastSuccessEpochSeconds)
                      .min()
                      .orElse(0)
                  : 0;
          double earliestWait =
              targets.stream()
                  .filter(TargetStatus::deferred)
                  .mapToDouble(TargetStatus::deferredSinceEpochSeconds)
                  .min()
                  .orElse(0);
          out.add(
              new Health(
                  new String[] {"probe", probe}, everySucceeded, longest, oldest, earliestWait));
        });
    return out;
  }

  /** What the alert rules need to know about the agent's own settings. */
  static void writeSettings(
      Map<String, Double> intervalSeconds, double deferredAlertAfterSeconds, MetricFamilies f) {
    f.gauge(
            DEFERRED_ALERT_AFTER,
            "How long a target may wait for an idle device before alerts say so (busy.alert_after).",
            Unit.SECONDS)
        .add(deferredAlertAfterSeconds);
    MetricFamilies.Gauge interval =
        f.gauge(
            INTERVAL,
            "The probe's configured schedule, so alerts need no hard-coded periods.",
            Unit.SECONDS);
    intervalSeconds.forEach((probe, seconds) -> interval.add(seconds, "probe", probe));
  }

  static void writeTolerated(Map<ResultStore.ToleratedKey, Long> counts, MetricFamilies f) {
    f.counter(
        TOLERATED,
        "Driver calls that failed without failing the run (cleanup such as aclrtResetDevice,"
            + " inventory with a stand-in such as aclrtGetSocName), by probe and call.",
        counts,
        key -> new String[] {"call", key.call(), "probe", key.probe()});
  }

  /**
   * What the probes took from each device: the seconds they held it, so that the agent's own cost
   * on the devices is a figure, not a promise.
   */
  static void writeDeviceSeconds(Map<Integer, Double> seconds, MetricFamilies f) {
    if (seconds.isEmpty()) {
      return;
    }
    CounterSnapshot.Builder b =
        CounterSnapshot.builder()
            .name(DEVICE_SECONDS)
            .help(
                "Seconds the probes held the device (runs that started on it, discarded ones"
                    + " included; skipped ones not).")
            .unit(Unit.SECONDS);
    seconds.forEach(
        (device, s) ->
            b.dataPoint(
                CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(Labels.of("device", String.valueOf(device)))
                    .value(s)
                    .build()));
    f.add(b.build());
  }

  static void writeRuns(
      Map<ResultStore.RunKey, Long> runCounts, ProbeHealth health, MetricFamilies f) {
    String help =
        "Probe runs by target and result (success, error, timeout, skipped_busy,"
            + " skipped_budget, skipped_device_busy, discarded_device_busy); per probe: summed over"
            + " its targets.";
    if (health == ProbeHealth.PER_PROBE) {
      // A sum of counters is a counter: each only grows, and they restart together with the agent.
      Map<List<String>, Long> summed = new LinkedHashMap<>();
      runCounts.forEach(
          (k, n) -> summed.merge(List.of(k.probe(), k.result().label()), n, Long::sum));
      f.counter(RUNS, help, summed, k -> new String[] {"probe", k.get(0), "result", k.get(1)});
      return;
    }
    f.counter(
        RUNS,
        help,
        runCounts,
        key ->
            new String[] {
              "probe", key.probe(), "result", key.result().label(), "target", key.target()
            });
  }
}
