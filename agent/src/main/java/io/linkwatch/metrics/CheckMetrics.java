package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.state.CheckRecord;
import io.linkwatch.verdict.Verdict;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;

/**
 * The last {@code linkwatch check} of each level on this host (a Slurm prolog's quick check, an
 * epilog's medium one), so a fleet dashboard shows on which nodes a check failed and why:
 *
 * <pre>
 * linkwatch_check_state{level="quick",state="FAIL"} 1.0
 * linkwatch_check_state{level="quick",state="OK"} 0.0
 * linkwatch_check_reason_info{code="LW-BELOW-FLOOR",level="quick",subject="p2p 0->1 SIO 256MiB"} 1
 * linkwatch_check_last_timestamp_seconds{level="quick"} 1.7968E9
 * linkwatch_check_duration_seconds{level="quick"} 4.2
 * </pre>
 *
 * No series before a level's first check. The reason has no figures in it (they change with every
 * check and would make a new series each time).
 */
final class CheckMetrics {
  static final String STATE = "linkwatch_check_state";
  static final String REASON = "linkwatch_check_reason";
  static final String LAST = "linkwatch_check_last_timestamp_seconds";
  static final String DURATION = "linkwatch_check_duration_seconds";

  private CheckMetrics() {}

  static void write(List<CheckRecord> records, MetricFamilies f) {
    if (records.isEmpty()) {
      return;
    }
    MetricFamilies.Gauge state =
        f.gauge(
            STATE,
            "1 for the verdict of the last linkwatch check of this level (OK, WARN, UNKNOWN, FAIL),"
                + " 0 for the others.",
            null);
    MetricFamilies.Gauge last =
        f.gauge(LAST, "When the last linkwatch check of this level ended.", Unit.SECONDS);
    MetricFamilies.Gauge duration =
        f.gauge(DURATION, "How long the last linkwatch check of this level took.", Unit.SECONDS);
    for (CheckRecord r : records) {
      for (Verdict.State s : Verdict.State.values()) {
        state.add(s.name().equals(r.state()) ? 1 : 0, "level", r.level(), "state", s.name());
      }
      last.add(r.endedEpochSeconds(), "level", r.level());
      duration.add(r.seconds(), "level", r.level());
    }
    for (CheckRecord r : records) {
      if (!r.code().isEmpty()) {
        f.info(
            REASON,
            "The worst finding of the last linkwatch check of this level: its code and what it"
                + " concerns (absent when the check was OK).",
            "level",
            r.level(),
            "code",
            r.code(),
            "subject",
            r.subject());
      }
    }
  }
}
