package io.linkwatch.compare;

import io.linkwatch.util.Gbps;
import java.util.Locale;

/**
 * One row of {@code linkwatch compare}: what was measured, linkwatch's figure and the vendor tool's
 * for the same thing, their ratio and a verdict. A figure either side lacks is NaN.
 *
 * @param test e.g. "p2p", "p2p bidirectional", "allreduce latency", "allreduce algbw"
 * @param target the pair ("0->1") or device set ("0,1")
 * @param unit "B/s" or "s"
 * @param tool the vendor tool the reference comes from
 */
public record Comparison(
    String test,
    String target,
    long sizeBytes,
    String unit,
    double linkwatch,
    double reference,
    String tool) {

  /** linkwatch / reference, NaN when either is missing. */
  public double ratio() {
    return linkwatch / reference;
  }

  /**
   * "agrees" within {@code tolerance} (0.15: ±15 %), else which side is lower; for a time, lower is
   * better, so the words are about the figures, not about who is faster.
   */
  public String verdict(double tolerance) {
    if (Double.isNaN(linkwatch)) {
      return "no linkwatch figure";
    }
    if (Double.isNaN(reference)) {
      return "no reference";
    }
    double r = ratio();
    if (Math.abs(r - 1) <= tolerance) {
      return "agrees";
    }
    return r < 1 ? "linkwatch lower" : "linkwatch higher";
  }

  public boolean disagrees(double tolerance) {
    String v = verdict(tolerance);
    return v.startsWith("linkwatch ");
  }

  /** The figure as a person reads it: GB/s or µs. */
  public static String format(double value, String unit) {
    if (Double.isNaN(value)) {
      return "-";
    }
    return unit.equals("s")
        ? String.format(Locale.ROOT, "%.1f us", value * 1e6)
        : Gbps.withUnit(value);
  }
}
