package io.linkwatch.runtime;

import io.linkwatch.runtime.telemetry.DeviceLinks;

/**
 * The counters a device's management library keeps about its links (DCMI on Ascend, NVML on
 * NVIDIA), read without a context, an allocation or a copy: what the passive watcher reads while
 * jobs hold the devices. Like {@link DeviceMonitor} its library loads on first use.
 */
public interface LinkTelemetry {
  /** The source label of its readings, e.g. {@code dcmi}. */
  String source();

  /**
   * One read of {@code device}'s links. A reading the product does not support is named in {@link
   * DeviceLinks#unsupported()}; a call that fails otherwise fails the read, which names it.
   */
  DeviceLinks read(int device);

  /**
   * The same, with the device's own network port where {@code npuPort} asks for it and the library
   * can read one (DCMI on an NPU with a RoCE port); other libraries ignore it.
   */
  default DeviceLinks read(int device, boolean npuPort) {
    return read(device);
  }
}
