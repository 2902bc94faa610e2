package io.linkwatch.probe.devicememory;

import io.linkwatch.metrics.families.MetricWriter;

/**
 * Series of the device_memory probe, e.g.
 *
 * <pre>
 * linkwatch_device_memory_bandwidth_bytes_per_second{device="0",size_bytes="1073741824"} 6.21E11
 * </pre>
 */
public final class DeviceMemoryMetrics {
  public static final String BANDWIDTH = "linkwatch_device_memory_bandwidth_bytes_per_second";

  public static final MetricWriter<DeviceMemoryBandwidth> WRITER =
      (d, f) ->
          f.result(BANDWIDTH, "Device-local copy bandwidth, bytes copied per second.", null)
              .add(
                  d.bytesPerSecond(),
                  "device",
                  String.valueOf(d.device()),
                  "size_bytes",
                  String.valueOf(d.sizeBytes()));

  private DeviceMemoryMetrics() {}
}
