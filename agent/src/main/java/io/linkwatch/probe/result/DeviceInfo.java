package io.linkwatch.probe.result;

import io.linkwatch.util.ByteSize;

/**
 * One device's inventory, e.g. summarised as {@code dev0 Ascend910_9382 64GiB phy 2}. {@code
 * physicalId} and {@code numaNode} are null when unknown (numbers in JSON, {@code null} there, so a
 * program reading {@code probe topology --json} compares numbers); {@code cpuAffinity} is the CPU
 * list the topology shows, or empty. {@code uuid} is the device's UUID where the runtime reports
 * one (NVML's {@code GPU-...}): the id NVIDIA's device plugin gives the kubelet; empty when
 * unknown.
 */
public record DeviceInfo(
    int device,
    String name,
    Integer physicalId,
    Integer numaNode,
    String cpuAffinity,
    long memoryTotalBytes,
    String uuid)
    implements Measurement {

  public DeviceInfo {
    // Absent from the JSON of releases before it.
    uuid = uuid == null ? "" : uuid;
  }

  /** A device without a known UUID. */
  public DeviceInfo(
      int device,
      String name,
      Integer physicalId,
      Integer numaNode,
      String cpuAffinity,
      long memoryTotalBytes) {
    this(device, name, physicalId, numaNode, cpuAffinity, memoryTotalBytes, "");
  }

  @Override
  public String summary() {
    StringBuilder s =
        new StringBuilder("dev")
            .append(device)
            .append(' ')
            .append(name)
            .append(' ')
            .append(ByteSize.format(memoryTotalBytes));
    if (physicalId != null) {
      s.append(" phy ").append(physicalId);
    }
    if (numaNode != null) {
      s.append(" node ").append(numaNode);
    }
    if (!cpuAffinity.isEmpty()) {
      s.append(" cpus ").append(cpuAffinity);
    }
    return s.toString();
  }
}
