package io.linkwatch.probe.result;

import io.linkwatch.runtime.ToleratedFailure;
import java.util.List;

/**
 * Everything one run of a probe produced: a result per target, or, when the probe does not apply to
 * this machine (e.g. allreduce with one device), no targets and the reason; what the activity
 * checks of the run found on each device they read; and the driver calls that failed without
 * failing the run.
 *
 * <p>A run that failed before it knew its targets (the runtime did not open, the device count could
 * not be read, the worker hung or died) has one target named after the probe; the agent reports it
 * against the targets it already knows ({@link #onTargets}), so their series stay and go to 0.
 */
public record ProbeRun(
    String probe,
    List<TargetResult> targets,
    String skippedBecause,
    List<DeviceActivity> devices,
    List<ToleratedFailure> tolerated) {
  public ProbeRun {
    targets = List.copyOf(targets);
    skippedBecause = skippedBecause == null ? "" : skippedBecause;
    devices = devices == null ? List.of() : List.copyOf(devices);
    tolerated = tolerated == null ? List.of() : List.copyOf(tolerated);
  }

  public static ProbeRun of(String probe, List<TargetResult> targets) {
    return new ProbeRun(probe, targets, "", List.of(), List.of());
  }

  public static ProbeRun notApplicable(String probe, String reason) {
    return new ProbeRun(probe, List.of(), reason, List.of(), List.of());
  }

  /** A run that failed before it knew its targets; see the class comment. */
  public static ProbeRun failedBeforeTargets(String probe, TargetResult failure) {
    return of(
        probe,
        List.of(
            new TargetResult(
                probe,
                failure.outcome(),
                failure.error(),
                failure.durationSeconds(),
                List.of(),
                failure.call())));
  }

  /** True for a run made by {@link #failedBeforeTargets}. */
  public boolean failedBeforeTargets() {
    return targets.size() == 1
        && targets.get(0).target().equals(probe)
        && targets.get(0).outcome() != Outcome.SUCCESS;
  }

  /**
   * This run reported against {@code known} targets if it failed before it knew its own, so a
   * failure never makes known series vanish; otherwise (or with none known) this run.
   */
  public ProbeRun onTargets(List<String> known) {
    if (known.isEmpty() || !failedBeforeTargets()) {
      return this;
    }
    TargetResult failure = targets.get(0);
    List<TargetResult> each =
        known.stream()
            .map(
                t ->
                    new TargetResult(
                        t,
                        failure.outcome(),
                        failure.error(),
                        failure.durationSeconds(),
                        List.of(),
                        failure.call()))
            .toList();
    return new ProbeRun(probe, each, skippedBecause, devices, tolerated);
  }

  /** This run with the activity checks' findings attached. */
  public ProbeRun withDevices(List<DeviceActivity> found) {
    return new ProbeRun(probe, targets, skippedBecause, found, tolerated);
  }

  /** This run with the driver calls that failed without failing it. */
  public ProbeRun withTolerated(List<ToleratedFailure> failures) {
    return new ProbeRun(probe, targets, skippedBecause, devices, failures);
  }

  public boolean allSucceeded() {
    return targets.stream().allMatch(t -> t.outcome() == Outcome.SUCCESS);
  }
}
