package io.linkwatch.metrics;

import io.linkwatch.kubelet.DeviceHolder;
import io.linkwatch.kubelet.PodLookup;
import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.probe.result.DeviceActivity;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the last activity check found on each device, e.g.
 *
 * <pre>
 * linkwatch_device_busy{device="1"} 1.0
 * linkwatch_device_busy_reason{device="1",namespace="ml",pod="train-0",reason="process"} 1.0
 * linkwatch_device_utilization_ratio{device="1",kind="aicore"} 0.8
 * linkwatch_pod_resources_lookups_total{result="success"} 3.0
 * </pre>
 *
 * <p>{@code namespace} and {@code pod} name the pod the kubelet allocated a busy device to, one
 * series per holder (several where a shared GPU has several); without a holder the reason has no
 * such labels. They exist only while the device is busy, so a pod's series go when the device is
 * free: at most one set per busy device, not one per pod that ever ran.
 */
final class DeviceActivityMetrics {
  static final String BUSY = "linkwatch_device_busy";
  static final String BUSY_REASON = "linkwatch_device_busy_reason";
  static final String PROCESSES = "linkwatch_device_processes";
  static final String UTILIZATION = "linkwatch_device_utilization_ratio";
  static final String POD_LOOKUPS = "linkwatch_pod_resources_lookups";

  private DeviceActivityMetrics() {}

  /**
   * @param holders the pods holding a busy device ({@code ResultStore::holders})
   */
  static void write(
      List<DeviceActivity> devices,
      Function<DeviceActivity, List<DeviceHolder>> holders,
      MetricFamilies f) {
    MetricFamilies.Gauge busy =
        f.gauge(BUSY, "1 when the last activity check found the device running other work.", null);
    MetricFamilies.Gauge reason =
        f.gauge(
            BUSY_REASON,
            "1 for each kind of reading (process, utilization, memory, unknown) that made the"
                + " device busy at the last activity check; on Kubernetes, namespace and pod name"
                + " the pod the kubelet allocated the device to.",
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
      // Containers of one pod share its labels: one series per pod.
      List<List<String>> pods =
          holders.apply(a).stream().map(h -> List.of(h.namespace(), h.pod())).distinct().toList();
      a.reasons().stream()
          .map(r -> r.kind().label())
          .distinct()
          .forEach(
              kind -> {
                if (pods.isEmpty()) {
                  reason.add(1, "device", device, "reason", kind);
                }
                for (List<String> p : pods) {
                  reason.add(
                      1, "device", device, "namespace", p.get(0), "pod", p.get(1), "reason", kind);
                }
              });
      if (a.otherProcesses() != null) {
        processes.add(a.otherProcesses().size(), "device", device);
      }
      a.utilization()
          .forEach((kind, value) -> utilization.add(value, "device", device, "kind", kind));
    }
  }

  static void writeLookups(Map<PodLookup.Result, Long> counts, MetricFamilies f) {
    f.counter(
        POD_LOOKUPS,
        "Questions to the kubelet's pod-resources API about who holds a busy device, by result"
            + " (success, error, timeout).",
        counts,
        result -> new String[] {"result", result.label()});
  }
}
