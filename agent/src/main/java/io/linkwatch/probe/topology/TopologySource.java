package io.linkwatch.probe.topology;

import io.linkwatch.runtime.DeviceRuntime;

/** Finds the link types between a runtime's devices. Never throws: it returns what it knows. */
@FunctionalInterface
public interface TopologySource {
  Topology load(DeviceRuntime runtime);
}
