package io.linkwatch.verdict;

import io.linkwatch.util.Gbps;
import java.util.Locale;

/**
 * What one kind of link should measure on one product: a threshold past which the link fails and a
 * warning band before it, for a probe's figures within a size range, with where the figure comes
 * from. Bandwidths fail below their threshold, latencies above theirs.
 *
 * @param product the start of the device name the topology reports ({@code Ascend910_93} matches
 *     {@code Ascend910_9382}), compared without case
 * @param linkType what the figure is measured over: the link label ({@code SIO}, {@code HCCS},
 *     {@code NVLINK}) for p2p; {@code pinned h2d} and the like for host transfer; {@code 2 ranks}
 *     for a collective
 * @param probe the probe whose figures it judges ({@code p2p})
 * @param minSizeBytes the smallest copy or message size it applies to
 * @param maxSizeBytes the largest it applies to
 * @param quantity a bandwidth (bytes per second) or a latency (seconds, the p50)
 * @param fail past this the link fails
 * @param warn past this (and not past {@code fail}) it warns
 * @param source where the figures come from
 */
public record ExpectedFigure(
    String product,
    String linkType,
    String probe,
    long minSizeBytes,
    long maxSizeBytes,
    Quantity quantity,
    double fail,
    double warn,
    String source) {

  /** What a figure measures, which way is worse, and how it is written. */
  public enum Quantity {
    BANDWIDTH,
    LATENCY;

    /** Whether {@code value} is past {@code threshold} on the bad side. */
    boolean worse(double value, double threshold) {
      return this == BANDWIDTH ? value < threshold : value > threshold;
    }

    /** E.g. {@code 124.1 GB/s} or {@code 341 us}. */
    public String format(double value) {
      return this == BANDWIDTH
          ? Gbps.withUnit(value)
          : String.format(Locale.ROOT, "%.0f us", value * 1e6);
    }
  }

  public boolean matches(String deviceName, String link, String probeId, long sizeBytes) {
    return deviceName != null
        && deviceName.toLowerCase(Locale.ROOT).startsWith(product.toLowerCase(Locale.ROOT))
        && linkType.equalsIgnoreCase(link)
        && probe.equals(probeId)
        && sizeBytes >= minSizeBytes
        && sizeBytes <= maxSizeBytes;
  }

  /** FAIL past the threshold, WARN in the band before it, else OK. */
  public Verdict.State judge(double value) {
    if (quantity.worse(value, fail)) {
      return Verdict.State.FAIL;
    }
    return quantity.worse(value, warn) ? Verdict.State.WARN : Verdict.State.OK;
  }
}
