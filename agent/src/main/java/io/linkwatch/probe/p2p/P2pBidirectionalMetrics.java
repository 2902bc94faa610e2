package io.linkwatch.probe.p2p;

import io.linkwatch.metrics.families.MetricWriter;

/**
 * Series of the p2p_bidirectional probe, one per unordered pair and size, lower id as {@code src}
 * (so it joins the one-way series of the same labels), e.g.
 *
 * <pre>
 * linkwatch_p2p_bidirectional_bandwidth_bytes_per_second{dst="1",link_type="SIO",size_bytes="268435456",src="0"} 3.12E11
 * </pre>
 */
public final class P2pBidirectionalMetrics {
  public static final String BANDWIDTH = "linkwatch_p2p_bidirectional_bandwidth_bytes_per_second";

  public static final MetricWriter<P2pBidirectionalBandwidth> WRITER =
      (p, f) ->
          f.result(
                  BANDWIDTH,
                  "Both directions of a device pair at once: bytes moved both ways over the median"
                      + " wall time of the pair of copies.",
                  null)
              .add(
                  p.bytesPerSecond(),
                  "src",
                  String.valueOf(p.a()),
                  "dst",
                  String.valueOf(p.b()),
                  "link_type",
                  p.link(),
                  "size_bytes",
                  String.valueOf(p.sizeBytes()));

  private P2pBidirectionalMetrics() {}
}
