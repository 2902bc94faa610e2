package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.status.FindingEntry;
import io.linkwatch.verdict.Subsystem;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Each device's health per subsystem, from the agent's standing findings, in the manner of
 * dcgm-exporter's health status: 0 healthy, 1 warning, 2 failing. One series per device the
 * inventory names or the watcher reads, and per subsystem this host watches, so a healthy device
 * reads 0 rather than nothing, and a dashboard or alert needs no knowledge of finding codes:
 *
 * <pre>
 * linkwatch_device_health{device="3",subsystem="links"} 2.0
 * linkwatch_device_health{device="3",subsystem="pcie"} 0.0
 * </pre>
 *
 * A finding about several devices (a link, a PCIe switch above two devices) counts for each; one
 * about no device (the host, a probe run) for none. A finding the agent cannot judge by ({@code
 * UNKNOWN}) says nothing of health.
 */
final class DeviceHealthMetrics {
  static final String HEALTH = "linkwatch_device_health";

  private DeviceHealthMetrics() {}

  /**
   * @param devices the devices the inventory names or the watcher reads
   * @param watched the subsystems this host measures or reads
   */
  static void write(
      java.util.List<FindingEntry> findings,
      Set<Integer> devices,
      Set<Subsystem> watched,
      MetricFamilies f) {
    if (devices.isEmpty() || watched.isEmpty()) {
      return;
    }
    Map<Integer, Map<String, Integer>> health = new TreeMap<>();
    for (FindingEntry e : findings) {
      int level =
          switch (e.state()) {
            case "FAIL" -> 2;
            case "WARN" -> 1;
            default -> 0;
          };
      for (int device : e.devices()) {
        health.computeIfAbsent(device, d -> new TreeMap<>()).merge(e.subsystem(), level, Math::max);
      }
    }
    MetricFamilies.Gauge gauge =
        f.gauge(
            HEALTH,
            "Health of each device's subsystem (links, pcie, host_transfer, nic) from the agent's"
                + " standing findings: 0 healthy, 1 warning, 2 failing.",
            null);
    for (int device : new java.util.TreeSet<>(devices)) {
      Map<String, Integer> of = health.getOrDefault(device, Map.of());
      for (Subsystem s : watched) {
        gauge.add(
            of.getOrDefault(s.label(), 0),
            "device",
            String.valueOf(device),
            "subsystem",
            s.label());
      }
    }
  }
}
