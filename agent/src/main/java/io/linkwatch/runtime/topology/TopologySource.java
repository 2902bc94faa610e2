package io.linkwatch.runtime.topology;

import io.linkwatch.runtime.DeviceRuntime;

/** Finds the link types between a runtime's devices. Never throws: it returns what it knows. */
@FunctionalInterface
public interface TopologySource {
  Topology load(DeviceRuntime runtime);

  /** Whether this source can know the runtime's devices at all (npu-smi knows Ascend only). */
  default boolean appliesTo(DeviceRuntime runtime) {
    return true;
  }
}
