package io.linkwatch.probe.result;

import java.util.List;

/**
 * Everything one run of a probe produced: a result per target, or, when the probe does not apply to
 * this machine (e.g. allreduce with one device), no targets and the reason; and what the activity
 * checks of the run found on each device they read.
 */
public record ProbeRun(
    String probe, List<TargetResult> targets, String skippedBecause, List<DeviceActivity> devices) {
  public ProbeRun {
    targets = List.copyOf(targets);
    skippedBecause = skippedBecause == null ? "" : skippedBecause;
    devices = devices == null ? List.of() : List.copyOf(devices);
  }

  public static ProbeRun of(String probe, List<TargetResult> targets) {
    return new ProbeRun(probe, targets, "", List.of());
  }

  public static ProbeRun notApplicable(String probe, String reason) {
    return new ProbeRun(probe, List.of(), reason, List.of());
  }

  /** This run with the activity checks' findings attached. */
  public ProbeRun withDevices(List<DeviceActivity> found) {
    return new ProbeRun(probe, targets, skippedBecause, found);
  }

  public boolean allSucceeded() {
    return targets.stream().allMatch(t -> t.outcome() == Outcome.SUCCESS);
  }
}
