package io.linkwatch.probe.result;

import java.util.List;

/**
 * The outcome of a probe for one target, e.g. the pair {@code 0->1}. A failed target carries the
 * error text and no measurements: no stale or sentinel figures leave a failed run.
 */
public record TargetResult(
    String target,
    Outcome outcome,
    String error,
    double durationSeconds,
    List<Measurement> measurements) {

  public TargetResult {
    measurements = outcome == Outcome.SUCCESS ? List.copyOf(measurements) : List.of();
    error = error == null ? "" : error;
  }

  public static TargetResult success(String target, double seconds, List<Measurement> measured) {
    return new TargetResult(target, Outcome.SUCCESS, "", seconds, measured);
  }

  public static TargetResult failure(String target, Outcome outcome, String error, double seconds) {
    return new TargetResult(target, outcome, error, seconds, List.of());
  }
}
