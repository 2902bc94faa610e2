package io.linkwatch.probe.result;

import io.linkwatch.runtime.DeviceProcess;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the last activity check found on one device, and whether that made it busy. Readings that
 * could not be taken are absent (no sentinels): {@code otherProcesses} is null when no source lists
 * processes, {@code memoryUsedBytes} when device memory was not read.
 *
 * <p>E.g. {@code device 1 busy (dcmi): pid 4242 holds 2GiB; aicore 80%}.
 *
 * @param source where the readings came from: {@code dcmi}, {@code npu-smi}, {@code memory} or
 *     {@code none}
 * @param otherProcesses processes other than linkwatch's own that hold the device
 * @param utilization readings by {@code kind} label, as ratios
 * @param memoryUsedBytes device memory in use (total - free), when read through the runtime
 * @param checkedAtMillis wall-clock time of the check
 */
public record DeviceActivity(
    int device,
    boolean busy,
    String source,
    List<BusyReason> reasons,
    List<DeviceProcess> otherProcesses,
    Map<String, Double> utilization,
    Long memoryUsedBytes,
    long checkedAtMillis) {

  public DeviceActivity {
    reasons = reasons == null ? List.of() : List.copyOf(reasons);
    otherProcesses = otherProcesses == null ? null : List.copyOf(otherProcesses);
    utilization = utilization == null ? Map.of() : Map.copyOf(utilization);
  }

  /** Why the device is busy, for one log or CLI line, e.g. {@code pid 4242 holds 2GiB}. */
  public String why() {
    return reasons.stream().map(BusyReason::detail).collect(Collectors.joining(", "));
  }

  /**
   * The finding as skips, logs and the CLI say it: {@code device 1 is busy: pid 4242 holds 2GiB}.
   */
  public String busyLine() {
    return "device " + device + " is busy: " + why();
  }
}
