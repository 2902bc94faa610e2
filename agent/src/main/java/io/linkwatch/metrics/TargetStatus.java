package io.linkwatch.metrics;

import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import java.util.List;

/**
 * What is known of one probe target after its last run. {@code lastSuccessEpochSeconds} is 0 until
 * the first success. {@code measurements} are the last run's, so a failed run leaves none.
 */
public record TargetStatus(
    String probe,
    String target,
    Outcome lastOutcome,
    String error,
    double durationSeconds,
    double lastRunEpochSeconds,
    double lastSuccessEpochSeconds,
    List<Measurement> measurements) {

  public TargetStatus {
    measurements = List.copyOf(measurements);
  }

  public boolean succeeded() {
    return lastOutcome == Outcome.SUCCESS;
  }
}
