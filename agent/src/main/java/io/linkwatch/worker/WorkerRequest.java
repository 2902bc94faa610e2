package io.linkwatch.worker;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.runtime.Backend;
import java.util.List;
import java.util.Map;

/**
 * What the agent asks a worker process to do: one run of one probe. Sent as JSON on stdin.
 *
 * @param targets the targets to run; empty for all (a retry asks for the ones that waited)
 * @param memoryBaselines the least device memory in use seen so far per device, the idle baseline
 *     for devices whose processes cannot be listed
 */
public record WorkerRequest(
    String probe,
    ProbeSettings settings,
    Backend backend,
    HostPaths hostPaths,
    List<String> topologyCommand,
    BusyPolicy busy,
    List<String> targets,
    Map<Integer, Long> memoryBaselines) {

  public WorkerRequest {
    busy = busy == null ? BusyPolicy.DEFAULTS : busy;
    targets = targets == null ? List.of() : List.copyOf(targets);
    memoryBaselines = memoryBaselines == null ? Map.of() : Map.copyOf(memoryBaselines);
  }

  /** Every target under the default busy policy. */
  public WorkerRequest(
      String probe,
      ProbeSettings settings,
      Backend backend,
      HostPaths hostPaths,
      List<String> topologyCommand) {
    this(probe, settings, backend, hostPaths, topologyCommand, null, null, null);
  }
}
