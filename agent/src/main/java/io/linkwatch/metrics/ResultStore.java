package io.linkwatch.metrics;

import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The last result of every probe and target, and the run counters. Schedules write to it after each
 * run; scrapes and the status page only read immutable copies of it, so no request ever waits for
 * device work.
 *
 * <p>A run replaces its probe's targets: a target that a later run no longer reports (say, a pair
 * removed from the config) loses its series, while its counters stay, as counters should.
 */
public final class ResultStore {
  /** A run counter's key. */
  public record RunKey(String probe, String target, Outcome result) {}

  private final Clock clock;
  private final Map<String, Map<String, TargetStatus>> byProbe = new TreeMap<>();
  private final Map<RunKey, Long> runs = new LinkedHashMap<>();
  private final Map<String, String> skipped = new TreeMap<>();

  public ResultStore(Clock clock) {
    this.clock = clock;
  }

  /** Records a finished run (successful, failed, timed out: whatever each target's outcome). */
  public synchronized void record(ProbeRun run) {
    double now = clock.millis() / 1e3;
    Map<String, TargetStatus> previous = byProbe.getOrDefault(run.probe(), Map.of());
    Map<String, TargetStatus> next = new TreeMap<>();
    for (TargetResult t : run.targets()) {
      TargetStatus before = previous.get(t.target());
      double lastSuccess =
          t.outcome() == Outcome.SUCCESS
              ? now
              : before == null ? 0 : before.lastSuccessEpochSeconds();
      next.put(
          t.target(),
          new TargetStatus(
              run.probe(),
              t.target(),
              t.outcome(),
              t.error(),
              t.durationSeconds(),
              now,
              lastSuccess,
              t.measurements()));
      runs.merge(new RunKey(run.probe(), t.target(), t.outcome()), 1L, Long::sum);
    }
    byProbe.put(run.probe(), next);
    if (run.skippedBecause().isEmpty()) {
      skipped.remove(run.probe());
    } else {
      skipped.put(run.probe(), run.skippedBecause());
    }
  }

  /**
   * Records a run that did not take place (lane busy, budget spent) against the probe's known
   * targets, or against the probe itself when it has never run. The last results stay.
   */
  public synchronized void recordSkip(String probe, Outcome why) {
    List<String> targets = new ArrayList<>(byProbe.getOrDefault(probe, Map.of()).keySet());
    if (targets.isEmpty()) {
      targets.add(probe);
    }
    for (String target : targets) {
      runs.merge(new RunKey(probe, target, why), 1L, Long::sum);
    }
  }

  /** The targets of a probe's last run, for reporting a run that died without a result. */
  public synchronized List<String> knownTargets(String probe) {
    return new ArrayList<>(byProbe.getOrDefault(probe, Map.of()).keySet());
  }

  public synchronized List<TargetStatus> statuses() {
    List<TargetStatus> all = new ArrayList<>();
    byProbe.values().forEach(m -> all.addAll(m.values()));
    return all;
  }

  public synchronized Map<RunKey, Long> runCounts() {
    return new LinkedHashMap<>(runs);
  }

  /** Probes whose last run found nothing to do on this machine, with the reason. */
  public synchronized Map<String, String> notApplicable() {
    return new TreeMap<>(skipped);
  }
}
