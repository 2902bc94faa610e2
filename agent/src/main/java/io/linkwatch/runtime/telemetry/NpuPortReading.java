package io.linkwatch.runtime.telemetry;

import java.util.Map;

/**
 * What the public DCMI calls gave of an NPU's own RoCE port in one read. Each part is null where
 * its call is not supported on the product or failed this time: the {@code hccn_tool} reader then
 * reads that part itself.
 *
 * @param healthCode the port's network health state, the driver's {@code dcmi_rdfx_detect_result}
 *     (0 OK ... 8 IP_SET, 0xFF none of them), from {@code dcmi_get_device_network_health}
 * @param counters the packet counters by field name ({@code roce_new_pkt_rty_num}), from {@code
 *     dcmi_get_netdev_pkt_stats_info}
 * @param address the port's IP address, from {@code dcmi_get_device_ip}
 */
public record NpuPortReading(Integer healthCode, Map<String, Long> counters, String address) {
  public NpuPortReading {
    counters = counters == null ? null : Map.copyOf(counters);
  }

  public boolean empty() {
    return healthCode == null && counters == null && address == null;
  }
}
