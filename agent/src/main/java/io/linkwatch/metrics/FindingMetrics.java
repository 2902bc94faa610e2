package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.status.FindingEntry;
import java.util.List;

/**
 * The agent's own verdict on {@code /metrics}: one series per finding that stands, so a fleet
 * dashboard lists the culprits and an alert needs no figure thresholds of its own:
 *
 * <pre>
 * linkwatch_finding{code="LW-DEVICE-SLOW",subject="device 3"} 1.0
 * linkwatch_finding{code="LW-LINK-DOWN",subject="dev0 HCCS link 3 (to 3)"} 1.0
 * </pre>
 *
 * A finding's series goes when it clears (Prometheus marks it stale); no series while nothing is
 * found. The labels carry no figures, which change with every run and would make a new series each
 * time.
 */
final class FindingMetrics {
  static final String FINDING = "linkwatch_finding";

  private FindingMetrics() {}

  static void write(List<FindingEntry> findings, MetricFamilies f) {
    if (findings.isEmpty()) {
      return;
    }
    MetricFamilies.Gauge standing =
        f.gauge(
            FINDING,
            "1 for each finding of the agent's own verdict that stands now: its code and what it"
                + " concerns (a device, a link, the host), as linkwatch status names them.",
            null);
    for (FindingEntry e : findings) {
      standing.add(1, "code", e.code(), "subject", e.subject());
    }
  }
}
