package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.state.KitHook;
import io.linkwatch.state.ShadowRecord;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Whether the job-boundary kit acts on this host's verdicts, and in shadow mode how often it would
 * have:
 *
 * <pre>
 * linkwatch_verdicts_enforced 0.0
 * linkwatch_shadow_actions_total{action="drain",hook="healthcheck"} 3.0
 * linkwatch_shadow_actions_total{action="condition",hook="npd"} 0.0
 * </pre>
 *
 * In shadow mode every hook has its counter from 0, so a rule can take its increase; with the kit
 * enforcing, only hooks that counted something while in shadow mode (since the host started) do.
 */
public final class ShadowCollector implements MultiCollector {
  static final String ENFORCED = "linkwatch_verdicts_enforced";
  static final String ACTIONS = "linkwatch_shadow_actions";

  private final boolean enforced;
  private final Supplier<List<ShadowRecord>> records;

  /**
   * @param enforced the agent's {@code verdicts.enforce}
   * @param records the counts the kit's commands keep beside the probe lock
   */
  public ShadowCollector(boolean enforced, Supplier<List<ShadowRecord>> records) {
    this.enforced = enforced;
    this.records = records;
  }

  @Override
  public MetricSnapshots collect() {
    MetricFamilies f = new MetricFamilies();
    f.gauge(
            ENFORCED,
            "1 when the job-boundary kit (Slurm health check, prolog, epilog, node-problem-detector)"
                + " acts on this host's verdicts, 0 in shadow mode (verdicts.enforce: false).",
            null)
        .add(enforced ? 1 : 0);
    Map<KitHook, Long> counts = new EnumMap<>(KitHook.class);
    if (!enforced) {
      for (KitHook h : KitHook.values()) {
        counts.put(h, 0L);
      }
    }
    records.get().forEach(r -> counts.put(r.hook(), r.count()));
    f.counter(
        ACTIONS,
        "FAIL verdicts a hook of the job-boundary kit did not act on in shadow mode: the drains and"
            + " conditions it would have made.",
        counts,
        h -> new String[] {"hook", h.id(), "action", h.action()});
    return new MetricSnapshots(f.snapshots());
  }
}
