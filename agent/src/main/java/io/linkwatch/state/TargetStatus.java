package io.linkwatch.state;

import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import java.util.List;

/**
 * What is known of one probe target after its last run. {@code lastSuccessEpochSeconds} is 0 until
 * the first success. {@code measurements} are the last run's, so a failed run leaves none.
 *
 * <p>While the target waits for an idle device ({@code deferredSinceEpochSeconds} > 0, since the
 * first skip or discard of the current wait), the last run that did measure stays as it was: its
 * figures are still the latest true ones, and a skipped run is neither a success nor a failure.
 * {@code deferredBecause} says which device was busy and why.
 *
 * <p>{@code call} is the driver call the last failure is placed in (it returned an error, hung or
 * crashed), empty when none is.
 */
public record TargetStatus(
    String probe,
    String target,
    Outcome lastOutcome,
    String error,
    double durationSeconds,
    double lastRunEpochSeconds,
    double lastSuccessEpochSeconds,
    List<Measurement> measurements,
    double deferredSinceEpochSeconds,
    String deferredBecause,
    String call) {

  public TargetStatus {
    measurements = List.copyOf(measurements);
    deferredBecause = deferredBecause == null ? "" : deferredBecause;
    call = call == null ? "" : call;
  }

  public boolean deferred() {
    return deferredSinceEpochSeconds > 0;
  }

  /** This status, waiting for an idle device since {@code since}. */
  TargetStatus deferredSince(double since, String because) {
    return new TargetStatus(
        probe,
        target,
        lastOutcome,
        error,
        durationSeconds,
        lastRunEpochSeconds,
        lastSuccessEpochSeconds,
        measurements,
        since,
        because,
        call);
  }

  public boolean succeeded() {
    return lastOutcome == Outcome.SUCCESS;
  }
}
