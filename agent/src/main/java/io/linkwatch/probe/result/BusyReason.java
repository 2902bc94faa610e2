package io.linkwatch.probe.result;

import java.util.Locale;

/**
 * One reading that made a device busy, e.g. {@code process: pid 4242 holds 2GiB} or {@code
 * utilization: aicore 80%}. {@code kind} is the {@code reason} label of {@code
 * linkwatch_device_busy_reason}.
 */
public record BusyReason(Kind kind, String detail) {
  /** What kind of reading made the device busy. */
  public enum Kind {
    /** Another process holds the device. */
    PROCESS,
    /** A utilization reading is above its threshold. */
    UTILIZATION,
    /** Device memory in use by others is above its threshold. */
    MEMORY,
    /** No reading could be taken and the policy counts that as busy. */
    UNKNOWN;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  @Override
  public String toString() {
    return detail;
  }
}
