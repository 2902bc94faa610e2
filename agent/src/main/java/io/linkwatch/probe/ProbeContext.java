package io.linkwatch.probe;

import io.linkwatch.host.HostPaths;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.TopologySource;
import java.util.Set;

/**
 * What a probe run may use: the device runtime, the topology, the host's paths, a progress sink,
 * the gate that keeps measurements off busy devices, and the targets to run.
 *
 * @param targets the targets to run (e.g. {@code 0->1}); empty means all of them. A retry after a
 *     busy device asks for the targets that were skipped only.
 */
public record ProbeContext(
    DeviceRuntime runtime,
    TopologySource topology,
    HostPaths hostPaths,
    Progress progress,
    DeviceGate gate,
    Set<String> targets) {

  public ProbeContext {
    targets = Set.copyOf(targets);
  }

  /** Every target, no activity checks. */
  public ProbeContext(
      DeviceRuntime runtime, TopologySource topology, HostPaths hostPaths, Progress progress) {
    this(runtime, topology, hostPaths, progress, DeviceGate.OPEN, Set.of());
  }

  /** Whether this run should measure {@code target}. */
  public boolean wants(String target) {
    return targets.isEmpty() || targets.contains(target);
  }
}
