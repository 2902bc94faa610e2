package io.linkwatch.worker;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.runtime.Backend;
import java.util.List;

/** What the agent asks a worker process to do: one run of one probe. Sent as JSON on stdin. */
public record WorkerRequest(
    String probe,
    ProbeSettings settings,
    Backend backend,
    HostPaths hostPaths,
    List<String> topologyCommand) {}
