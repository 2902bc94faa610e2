package io.linkwatch.status;

import com.google.gson.annotations.JsonAdapter;
import io.linkwatch.kubelet.DeviceHolder;
import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.util.Json;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A device's last busy check.
 *
 * @param source where the readings came from: {@code dcmi}, {@code npu-smi}, {@code memory} or
 *     {@code none}
 * @param reasons why it is busy, one line each
 * @param otherProcesses processes other than linkwatch's own that hold the device; null when the
 *     source cannot list them
 * @param utilization readings by kind, as ratios
 * @param memoryUsedBytes device memory in use, when read through the runtime
 * @param holders the pods the kubelet allocated it to; present only when there are some
 */
public record DeviceEntry(
    int device,
    boolean busy,
    String source,
    List<String> reasons,
    Instant checked,
    List<DeviceProcess> otherProcesses,
    Map<String, Double> utilization,
    Long memoryUsedBytes,
    @JsonAdapter(value = Json.OmittedWhenNull.class, nullSafe = false) List<DeviceHolder> holders) {
  /** A device's busy check, with the pods the kubelet allocated it to (none off Kubernetes). */
  public static DeviceEntry of(DeviceActivity a, List<DeviceHolder> holders) {
    return new DeviceEntry(
        a.device(),
        a.busy(),
        a.source(),
        a.reasons().stream().map(BusyReason::detail).toList(),
        Instant.ofEpochMilli(a.checkedAtMillis()),
        a.otherProcesses(),
        new TreeMap<>(a.utilization()),
        a.memoryUsedBytes(),
        holders);
  }

  public DeviceEntry {
    source = source == null ? "" : source;
    reasons = reasons == null ? List.of() : List.copyOf(reasons);
    utilization = utilization == null ? Map.of() : Collections.unmodifiableMap(utilization);
    holders = holders == null || holders.isEmpty() ? null : List.copyOf(holders);
  }
}
