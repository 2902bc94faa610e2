package io.linkwatch.verdict;

import java.util.Locale;

/**
 * What one kind of link should measure on one product: a floor under which the link fails and a
 * warning band above it, for a probe's copies within a size range, with where the figure comes
 * from.
 *
 * @param product the start of the device name the topology reports ({@code Ascend910_93} matches
 *     {@code Ascend910_9382}), compared without case
 * @param linkType the link label ({@code SIO}, {@code HCCS}, {@code NVLINK})
 * @param probe the probe whose figures it judges ({@code p2p})
 * @param minSizeBytes the smallest copy size it applies to
 * @param maxSizeBytes the largest copy size it applies to
 * @param floorBytesPerSecond below this the link fails
 * @param warnBytesPerSecond below this (and above the floor) it warns
 * @param source where the figures come from
 */
public record ExpectedFigure(
    String product,
    String linkType,
    String probe,
    long minSizeBytes,
    long maxSizeBytes,
    double floorBytesPerSecond,
    double warnBytesPerSecond,
    String source) {

  public boolean matches(String deviceName, String link, String probeId, long sizeBytes) {
    return deviceName != null
        && deviceName.toLowerCase(Locale.ROOT).startsWith(product.toLowerCase(Locale.ROOT))
        && linkType.equalsIgnoreCase(link)
        && probe.equals(probeId)
        && sizeBytes >= minSizeBytes
        && sizeBytes <= maxSizeBytes;
  }
}
