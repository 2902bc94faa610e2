package io.linkwatch.runtime.telemetry;

import java.util.Map;

/**
 * What the public DCMI calls gave of an NPU's own RoCE port in one read. Each part is null where
 * its call is not supported on the product or failed this time: the {@code hccn_tool} reader then
 * reads that part itself. Not the port's health: {@code dcmi_get_device_network_health} is known to
 * block at times (Huawei's exporter bounds it to 1 s), and a call that blocks in the watcher costs
 * every device's link readings of that round; {@code hccn_tool -net_health}, under its own timeout,
 * loses only itself.
 *
 * @param counters the packet counters by field name ({@code roce_new_pkt_rty_num}), from {@code
 *     dcmi_get_netdev_pkt_stats_info}
 * @param address the port's IP address, from {@code dcmi_get_device_ip}
 */
public record NpuPortReading(Map<String, Long> counters, String address) {
  public NpuPortReading {
    counters = counters == null ? null : Map.copyOf(counters);
  }

  public boolean empty() {
    return counters == null && address == null;
  }
}
