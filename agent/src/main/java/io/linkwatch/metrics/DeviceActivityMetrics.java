package io.linkwatch.metrics;

import io.linkwatch.probe.result.DeviceActivity;
import java.util.List;

/**
 * What the last activity check found on each device, e.g.
 *
 * <pre>
 * linkwatch_device_busy{device="1"} 1.0
 * linkwatch_device_busy_reason{device="1",reason="process"} 1.0
 * linkwatch_device_utilization_ratio{device="1",kind="aicore"} 0.8
 * </pre>
 */
final class DeviceActivityMetrics {
  static final String BUSY = "linkwatch_device_busy";
  static final String BUSY_REASON = "linkwatch_device_busy_reason";
  static final String PROCESSES = "linkwatch_device_processes";
  static final String UTILIZATION = "linkwatch_device_utilization_ratio";

  private DeviceActivityMetrics() {}

  static void write(List<DeviceActivity> devices, MetricFamilies f) {
    MetricFamilies.Gauge busy =
        f.gauge(BUSY, "1 when the last activity check found the device running other work.", null);
    MetricFamilies.Gauge reason =
        f.gauge(
            BUSY_REASON,
            "1 for each kind of reading (process, utilization, memory, unknown) that made the"
                + " device busy at the last activity check.",
            null);
    MetricFamilies.Gauge processes =
        f.gauge(
            PROCESSES,
            "Processes other than linkwatch's that held the device at the last activity check.",
            null);
    MetricFamilies.Gauge utilization =
        f.gauge(
            UTILIZATION,
            "Device utilization by kind (aicore, hbm_bandwidth, npu) at the last activity check.",
            null);
    for (DeviceActivity a : devices) {
      String device = String.valueOf(a.device());
      busy.add(a.busy() ? 1 : 0, "device", device);
      a.reasons().stream()
          .map(r -> r.kind().label())
          .distinct()
          .forEach(kind -> reason.add(1, "device", device, "reason", kind));
      if (a.otherProcesses() != null) {
        processes.add(a.otherProcesses().size(), "device", device);
      }
      a.utilization()
          .forEach((kind, value) -> utilization.add(value, "device", device, "kind", kind));
    }
  }
}
