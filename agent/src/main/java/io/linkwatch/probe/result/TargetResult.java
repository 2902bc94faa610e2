package io.linkwatch.probe.result;

import io.linkwatch.runtime.DeviceException;
import java.util.List;

/**
 * The outcome of a probe for one target, e.g. the pair {@code 0->1}. A failed target carries the
 * error text and no measurements: no stale or sentinel figures leave a failed run.
 *
 * @param call the driver call the failure is placed in ({@code aclrtMemcpyAsync}: it returned an
 *     error, hung or crashed), empty when none is
 */
public record TargetResult(
    String target,
    Outcome outcome,
    String error,
    double durationSeconds,
    List<Measurement> measurements,
    String call) {

  public TargetResult {
    measurements = outcome == Outcome.SUCCESS ? List.copyOf(measurements) : List.of();
    error = error == null ? "" : error;
    call = call == null || outcome == Outcome.SUCCESS ? "" : call;
  }

  public static TargetResult success(String target, double seconds, List<Measurement> measured) {
    return new TargetResult(target, Outcome.SUCCESS, "", seconds, measured, "");
  }

  public static TargetResult failure(String target, Outcome outcome, String error, double seconds) {
    return new TargetResult(target, outcome, error, seconds, List.of(), "");
  }

  /** A failure placed in a driver call. */
  public static TargetResult failure(
      String target, Outcome outcome, String error, double seconds, String call) {
    return new TargetResult(target, outcome, error, seconds, List.of(), call);
  }

  /** An error from {@code e}; a {@link DeviceException} places it in its call. */
  public static TargetResult error(String target, RuntimeException e, double seconds) {
    String call = e instanceof DeviceException d ? d.function() : "";
    return new TargetResult(target, Outcome.ERROR, e.getMessage(), seconds, List.of(), call);
  }
}
