package io.linkwatch.status;

import com.google.gson.annotations.JsonAdapter;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.Json;
import java.time.Instant;
import java.util.List;

/**
 * One target's last run: how it ended, when, what it measured, and whether it waits for an idle
 * device.
 *
 * @param error the last failure's message, empty after a success
 * @param failedCall the driver call the failure is placed in, null when none is
 * @param lastRun when the last run ended; null in a check's document, which is its own run
 * @param lastSuccess null before the first success
 * @param nextRun null when the probe is not scheduled
 * @param measurements the last figures; one JSON cannot carry (a failed, NaN figure) is an {@link
 *     UnencodedFigure}
 * @param waitingForIdleSince present only while the target waits for its devices to be idle
 * @param waitingBecause what keeps them busy; present with {@code waitingForIdleSince}
 */
public record TargetEntry(
    String probe,
    String target,
    Outcome result,
    String error,
    String failedCall,
    double durationSeconds,
    Instant lastRun,
    Instant lastSuccess,
    Instant nextRun,
    List<Measurement> measurements,
    @JsonAdapter(value = Json.OmittedWhenNull.class, nullSafe = false) Instant waitingForIdleSince,
    @JsonAdapter(value = Json.OmittedWhenNull.class, nullSafe = false) String waitingBecause) {

  /** A figure with the probe and target that measured it. */
  public record Figure(String probe, String target, Measurement measurement) {}

  public TargetEntry {
    probe = probe == null ? "" : probe;
    target = target == null ? "" : target;
    error = error == null ? "" : error;
    measurements = measurements == null ? List.of() : List.copyOf(measurements);
  }

  /** A run's target as a one-shot run or a check has it: no times, no schedule, not waiting. */
  public static TargetEntry of(String probe, TargetResult t) {
    return new TargetEntry(
        probe,
        t.target(),
        t.outcome(),
        t.error(),
        t.call().isEmpty() ? null : t.call(),
        t.durationSeconds(),
        null,
        null,
        null,
        t.measurements().stream().map(UnencodedFigure::of).toList(),
        null,
        null);
  }

  public boolean succeeded() {
    return result == Outcome.SUCCESS;
  }

  public boolean waiting() {
    return waitingForIdleSince != null;
  }

  /** The result's label, e.g. {@code skipped_device_busy}; empty when the document had none. */
  public String resultLabel() {
    return result == null ? "" : result.label();
  }

  public List<Figure> figures() {
    return measurements.stream().map(m -> new Figure(probe, target, m)).toList();
  }
}
