package io.linkwatch.probe.p2p;

import io.linkwatch.metrics.families.MetricWriter;

/**
 * Series of the p2p probe, e.g.
 *
 * <pre>
 * linkwatch_p2p_bandwidth_bytes_per_second{dst="1",link_type="SIO",size_bytes="268435456",src="0"} 1.55E11
 * </pre>
 */
public final class P2pMetrics {
  public static final String BANDWIDTH = "linkwatch_p2p_bandwidth_bytes_per_second";

  public static final MetricWriter<P2pBandwidth> WRITER =
      (p, f) ->
          f.result(BANDWIDTH, "Median copy bandwidth from device src to device dst.", null)
              .add(
                  p.bytesPerSecond(),
                  "src",
                  String.valueOf(p.src()),
                  "dst",
                  String.valueOf(p.dst()),
                  "link_type",
                  p.link(),
                  "size_bytes",
                  String.valueOf(p.sizeBytes()));

  private P2pMetrics() {}
}
