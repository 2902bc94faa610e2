package io.linkwatch.probe;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.topology.TopologySource;
import io.linkwatch.runtime.DeviceRuntime;

/**
 * What a probe run may use: the device runtime, the topology, the host's paths, a progress sink.
 */
public record ProbeContext(
    DeviceRuntime runtime, TopologySource topology, HostPaths hostPaths, Progress progress) {}
