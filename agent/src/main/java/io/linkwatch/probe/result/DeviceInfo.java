package io.linkwatch.probe.result;

/**
 * One device's inventory. {@code physicalId} and {@code numaNode} are empty strings when unknown;
 * {@code cpuAffinity} is the CPU list the topology shows, or empty.
 */
public record DeviceInfo(
    int device,
    String name,
    String physicalId,
    String numaNode,
    String cpuAffinity,
    long memoryTotalBytes)
    implements Measurement {
  @Override
  public String summary() {
    return toString();
  }
}
