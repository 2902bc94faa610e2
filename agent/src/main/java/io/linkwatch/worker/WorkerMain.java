package io.linkwatch.worker;

import io.linkwatch.activity.ActivityGate;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.CommandTopologySource;
import io.linkwatch.probe.topology.FallbackTopologySource;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.AscendRuntime;
import io.linkwatch.util.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker side: reads a {@link WorkerRequest} from stdin, runs the probe against the device
 * runtime, writes the {@link ProbeRun} as one JSON document on stdout. Logs go to stderr, which the
 * agent relays to its own log. A runtime that cannot even open becomes a failed run, not a crash.
 */
public final class WorkerMain {
  private static final Logger log = LoggerFactory.getLogger(WorkerMain.class);

  private WorkerMain() {}

  public static int run(InputStream in, PrintStream out) throws IOException {
    WorkerRequest request = ProbeKind.JSON.readValue(in, WorkerRequest.class);
    ProbeRun result = execute(request);
    out.println(Json.MAPPER.writeValueAsString(result));
    out.flush();
    return 0;
  }

  static ProbeRun execute(WorkerRequest request) {
    long started = System.nanoTime();
    try (DeviceRuntime runtime = AscendRuntime.open(request.backend())) {
      ActivityGate gate = ActivityGate.standard(request.busy(), runtime, request.memoryBaselines());
      ProbeRun run =
          request
              .settings()
              .newProbe()
              .run(
                  new ProbeContext(
                      runtime,
                      FallbackTopologySource.standard(
                          request.topologyCommand(), CommandTopologySource.DEFAULT_TIMEOUT),
                      request.hostPaths(),
                      Progress.NONE,
                      gate,
                      Set.copyOf(request.targets())));
      log.debug("device activity checks of {}: {}", request.probe(), gate.cost());
      return run.withDevices(gate.activity());
    } catch (RuntimeException e) {
      // The runtime failed before any target could run (no library, aclInit failed, ...).
      return ProbeRun.of(
          request.probe(),
          List.of(
              TargetResult.failure(
                  request.probe(),
                  Outcome.ERROR,
                  e.getMessage(),
                  (System.nanoTime() - started) / 1e9)));
    }
  }
}
