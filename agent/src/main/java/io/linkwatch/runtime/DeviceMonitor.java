package io.linkwatch.runtime;

import java.util.List;

/**
 * Who else is using a device, as the driver's management library sees it (DCMI on Ascend, NVML on
 * NVIDIA). Unlike {@link DeviceRuntime} it opens no context on the device, so reading it costs a
 * job nothing. Every failing call throws {@link DeviceException}; a library that is not installed
 * throws {@link BackendUnavailableException} on first use.
 */
public interface DeviceMonitor {
  /** The source label of its readings, e.g. {@code dcmi}. */
  String source();

  /** Whether a {@link DeviceException} code will not change within this process (unsupported). */
  boolean permanent(int code);

  /** The processes holding {@code device}, this one included when it holds it. */
  List<DeviceProcess> processes(int device);

  /** A utilization reading of {@code device} as a ratio 0..1. */
  double utilization(int device, Utilization kind);
}
