package io.linkwatch.passive;

import io.linkwatch.runtime.Backend;
import java.util.Arrays;
import java.util.List;

/**
 * Every source of passive readings, once: its config key ({@code passive.<id>.enabled}), the {@code
 * source} label of its health series and status entries, and the backends it serves. The config,
 * the watcher, the metrics and the status all take the list from here.
 */
public enum PassiveSource {
  /** HCCS lanes, traffic and errors, and SIO CRC errors, through {@code libdcmi.so}. */
  DCMI("dcmi", "HCCS and SIO link state and counters through DCMI", Backend.Vendor.ASCEND),
  /** NVLink state, traffic and errors, and the PCIe replay counter, through NVML. */
  NVML("nvml", "NVLink state and counters and PCIe replays through NVML", Backend.Vendor.NVIDIA),
  /** PCIe speed, width and AER counters of each device and the bridges above it, from sysfs. */
  SYSFS("sysfs", "PCIe link speed, width and AER counters from sysfs", null),
  /**
   * The ports to other servers: InfiniBand and RoCE adapters' state, speed, traffic and error
   * counters from {@code /sys/class/infiniband}, on any backend.
   */
  INFINIBAND("infiniband", "InfiniBand and RoCE adapter ports (to other servers) from sysfs", null),
  /**
   * The ports to other servers of Ascend NPUs, each NPU's own RoCE port, through {@code hccn_tool}:
   * link, speed, link ups, traffic and error counters, optics, LLDP neighbour, net health, address.
   */
  HCCN_TOOL(
      "hccn_tool",
      "Ascend NPUs' own RoCE ports (to other servers) through hccn_tool",
      Backend.Vendor.ASCEND);

  private final String id;
  private final String description;
  private final Backend.Vendor vendor;

  PassiveSource(String id, String description, Backend.Vendor vendor) {
    this.id = id;
    this.description = description;
    this.vendor = vendor;
  }

  public String id() {
    return id;
  }

  public String description() {
    return description;
  }

  /** Whether the source reads the devices of {@code backend} (sysfs reads any). */
  public boolean serves(Backend backend) {
    return vendor == null || vendor == backend.vendor();
  }

  /** The vendor library source of {@code backend}: the one the watcher process reads. */
  public static PassiveSource libraryOf(Backend backend) {
    return backend.vendor() == Backend.Vendor.NVIDIA ? NVML : DCMI;
  }

  public static List<String> ids() {
    return Arrays.stream(values()).map(PassiveSource::id).toList();
  }
}
