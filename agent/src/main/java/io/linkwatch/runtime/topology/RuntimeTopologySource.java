package io.linkwatch.runtime.topology;

import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.LinkType;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Topology from the runtime's own link query ({@code aclrtGetDevicesTopo}, NVML), named after it.
 * Answers {@link Topology#NONE} when the library lacks the call or the device does not support it,
 * so a caller can fall back to npu-smi.
 */
public final class RuntimeTopologySource implements TopologySource {
  @Override
  public Topology load(DeviceRuntime runtime) {
    int n = runtime.deviceCount();
    Map<String, LinkType> links = new HashMap<>();
    try {
      for (int s = 0; s < n; s++) {
        for (int d = 0; d < n; d++) {
          if (s == d) {
            continue;
          }
          Optional<LinkType> link = runtime.linkType(s, d);
          if (link.isEmpty()) {
            return Topology.NONE;
          }
          links.put(s + "->" + d, link.get());
        }
      }
    } catch (DeviceException e) {
      return Topology.NONE;
    }
    return new Topology(runtime.linkTypeSource(), links, Map.of());
  }
}
