package io.linkwatch.probe.result;

import java.util.Locale;

/** How a probe run for a target ended; the {@code result} label of {@code probe_runs_total}. */
public enum Outcome {
  SUCCESS,
  ERROR,
  TIMEOUT,
  SKIPPED_BUSY,
  SKIPPED_BUDGET;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
