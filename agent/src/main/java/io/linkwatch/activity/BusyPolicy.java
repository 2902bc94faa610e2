package io.linkwatch.activity;

import java.time.Duration;
import java.util.Locale;

/**
 * When a device counts as busy and what a probe does about it (the {@code busy:} config block). A
 * device is busy when another process holds it, when a utilization reading is above {@code
 * utilizationAbove}, or when device memory in use by others is above {@code memoryAboveBytes}.
 *
 * @param policy {@code skip}: measure only idle devices; {@code ignore}: measure whatever they do
 * @param retry how often a skipped target's devices are checked again until the next scheduled run
 * @param whenUnknown what a device counts as when no reading at all can be taken
 * @param alertAfter how long a target may wait for an idle window before an alert says so
 * @param checkTimeout how long one reading (a DCMI call, npu-smi, the runtime's memory query) may
 *     take
 * @param npuSmi the npu-smi program, asked for processes when DCMI cannot be used
 */
public record BusyPolicy(
    Mode policy,
    Duration retry,
    double utilizationAbove,
    long memoryAboveBytes,
    Unknown whenUnknown,
    Duration alertAfter,
    Duration checkTimeout,
    String npuSmi) {

  public static final BusyPolicy DEFAULTS =
      new BusyPolicy(
          Mode.SKIP,
          Duration.ofSeconds(30),
          0.10,
          1L << 30,
          Unknown.BUSY,
          Duration.ofHours(24),
          Duration.ofSeconds(5),
          "npu-smi");

  /** This policy with another answer for devices that cannot be read. */
  public BusyPolicy withUnknown(Unknown unknown) {
    return new BusyPolicy(
        policy,
        retry,
        utilizationAbove,
        memoryAboveBytes,
        unknown,
        alertAfter,
        checkTimeout,
        npuSmi);
  }

  /** This policy with another mode, e.g. {@code ignore} for a forced one-shot run. */
  public BusyPolicy withPolicy(Mode mode) {
    return new BusyPolicy(
        mode,
        retry,
        utilizationAbove,
        memoryAboveBytes,
        whenUnknown,
        alertAfter,
        checkTimeout,
        npuSmi);
  }

  /** What a probe does on a busy device. */
  public enum Mode {
    SKIP,
    IGNORE;

    public static Mode parse(String text) {
      return switch (text) {
        case "skip" -> SKIP;
        case "ignore" -> IGNORE;
        default -> throw new IllegalArgumentException("'" + text + "' is not skip or ignore");
      };
    }

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What a device counts as when nothing could be read. */
  public enum Unknown {
    BUSY,
    IDLE;

    public static Unknown parse(String text) {
      return switch (text) {
        case "busy" -> BUSY;
        case "idle" -> IDLE;
        default -> throw new IllegalArgumentException("'" + text + "' is not busy or idle");
      };
    }
  }

  public boolean skips() {
    return policy == Mode.SKIP;
  }
}
