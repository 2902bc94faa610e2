package io.linkwatch.probe.result;

import java.util.List;

/**
 * Everything one run of a probe produced: a result per target, or, when the probe does not apply to
 * this machine (e.g. allreduce with one device), no targets and the reason.
 */
public record ProbeRun(String probe, List<TargetResult> targets, String skippedBecause) {
  public ProbeRun {
    targets = List.copyOf(targets);
    skippedBecause = skippedBecause == null ? "" : skippedBecause;
  }

  public static ProbeRun of(String probe, List<TargetResult> targets) {
    return new ProbeRun(probe, targets, "");
  }

  public static ProbeRun notApplicable(String probe, String reason) {
    return new ProbeRun(probe, List.of(), reason);
  }

  public boolean allSucceeded() {
    return targets.stream().allMatch(t -> t.outcome() == Outcome.SUCCESS);
  }
}
