package io.linkwatch.probe;

import io.linkwatch.host.HostPaths;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.AscendRuntime;
import io.linkwatch.runtime.topology.TopologySource;

/** The sim through the real JNA binding, in this process (default profile, no control file). */
public final class SimRuntime {
  private SimRuntime() {}

  public static DeviceRuntime open() {
    return AscendRuntime.open(Backend.SIM);
  }

  public static ProbeContext context(DeviceRuntime runtime, TopologySource topology) {
    return new ProbeContext(runtime, topology, HostPaths.system(), Progress.NONE);
  }
}
