package io.linkwatch.probe.result;

import java.util.Locale;

/** How a probe run for a target ended; the {@code result} label of {@code probe_runs_total}. */
public enum Outcome {
  SUCCESS,
  ERROR,
  TIMEOUT,
  /** Another probe held the lane of device work the whole time. */
  SKIPPED_BUSY,
  SKIPPED_BUDGET,
  /** A device the target needs was running other work; nothing was measured. */
  SKIPPED_DEVICE_BUSY,
  /** Other work started on a device during the measurement; the figures were thrown away. */
  DISCARDED_DEVICE_BUSY;

  /** The target waits for an idle window: the outcome neither succeeded nor failed. */
  public boolean deferred() {
    return this == SKIPPED_DEVICE_BUSY || this == DISCARDED_DEVICE_BUSY;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
