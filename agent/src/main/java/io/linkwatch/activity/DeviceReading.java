package io.linkwatch.activity;

import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.Utilization;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The raw readings of one device from whichever sources answered. A reading no source could take is
 * null (processes, memory) or missing from the map (utilization).
 *
 * @param source where the process list came from ({@code dcmi}), {@code memory} when only the
 *     runtime's memory could be read, {@code none} when nothing could
 * @param processes every process holding the device, linkwatch's own included
 * @param memoryUsedBytes total - free device memory, read only when no process list was had
 * @param failures why each source that did not answer did not, e.g. {@code dcmi:
 *     dcmi_get_device_resource_info returned -8013: not supported in a container}
 */
public record DeviceReading(
    int device,
    String source,
    List<DeviceProcess> processes,
    Map<Utilization, Double> utilization,
    Long memoryUsedBytes,
    List<String> failures) {

  public DeviceReading {
    processes = processes == null ? null : List.copyOf(processes);
    EnumMap<Utilization, Double> ordered = new EnumMap<>(Utilization.class);
    ordered.putAll(utilization);
    utilization = Collections.unmodifiableMap(ordered); // readings in a stable order
    failures = List.copyOf(failures);
  }
}
