package io.linkwatch.probe.hosttransfer;

import io.linkwatch.metrics.families.MetricWriter;

/**
 * Series of the host_transfer probe, e.g.
 *
 * <pre>
 * linkwatch_host_transfer_bandwidth_bytes_per_second{cpu_node="0",device="0",direction="h2d",mem_node="0",memory="pageable",size_bytes="67108864"} 2.47E10
 * linkwatch_host_buffer_pages_ratio{cpu_node="0",device="0",mem_node="0",memory="pageable"} 1.0
 * </pre>
 */
public final class HostTransferMetrics {
  public static final String BANDWIDTH = "linkwatch_host_transfer_bandwidth_bytes_per_second";
  public static final String PAGES = "linkwatch_host_buffer_pages_ratio";

  public static final MetricWriter<HostTransferBandwidth> BANDWIDTH_WRITER =
      (h, f) ->
          f.result(
                  BANDWIDTH,
                  "Median host-device copy bandwidth; mem_node is where the buffer's pages really"
                      + " were.",
                  null)
              .add(
                  h.bytesPerSecond(),
                  "device",
                  String.valueOf(h.device()),
                  "direction",
                  h.direction(),
                  "memory",
                  h.memory(),
                  "cpu_node",
                  String.valueOf(h.cpuNode()),
                  "mem_node",
                  h.memNode(),
                  "size_bytes",
                  String.valueOf(h.sizeBytes()));

  public static final MetricWriter<HostBufferPages> PAGES_WRITER =
      (p, f) ->
          f.result(PAGES, "Share of the host buffer's pages found on mem_node.", null)
              .add(
                  p.ratio(),
                  "device",
                  String.valueOf(p.device()),
                  "memory",
                  p.memory(),
                  "cpu_node",
                  String.valueOf(p.cpuNode()),
                  "mem_node",
                  String.valueOf(p.memNode()));

  private HostTransferMetrics() {}
}
