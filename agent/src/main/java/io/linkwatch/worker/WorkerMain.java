package io.linkwatch.worker;

import io.linkwatch.activity.ActivityGate;
import io.linkwatch.host.ParentDeath;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import io.linkwatch.runtime.calls.MappedCallJournal;
import io.linkwatch.runtime.topology.CommandTopologySource;
import io.linkwatch.runtime.topology.FallbackTopologySource;
import io.linkwatch.util.Durations;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

  /**
   * The worker process's entry point, which the agent starts directly: going through the {@code
   * linkwatch} command line would build its whole command tree first (every command, option and
   * probe setting), most of a worker's start-up CPU.
   */
  public static void main(String[] args) {
    // Before anything that could hang: a worker must not outlive its agent.
    String unarmed = ParentDeath.arm(System.getenv());
    if (unarmed != null) {
      log.debug("the worker will not die with its agent: {}", unarmed);
    }
    int status;
    try {
      status = run(System.in, System.out);
    } catch (IOException | RuntimeException e) {
      // The agent reports a worker that exits without a result, with these lines of stderr.
      System.err.println("linkwatch worker: " + e);
      status = 1;
    }
    System.exit(status);
  }

  public static int run(InputStream in, PrintStream out) throws IOException {
    WorkerRequest request =
        ProbeKind.JSON.read(new InputStreamReader(in, StandardCharsets.UTF_8), WorkerRequest.class);
    ProbeRun result = execute(request);
    out.println(ProbeKind.JSON.write(result));
    out.flush();
    return 0;
  }

  static ProbeRun execute(WorkerRequest request) {
    long started = System.nanoTime();
    DeviceRuntime runtime;
    try {
      runtime = DeviceRuntimes.open(request.backend(), MappedCallJournal.fromEnvironment());
    } catch (RuntimeException e) {
      // No library, aclInit failed, ...: nothing ran, and the targets are not known here.
      return ProbeRun.failedBeforeTargets(
          request.probe(), TargetResult.error(request.probe(), e, Durations.secondsSince(started)));
    }
    ProbeRun run;
    try {
      run = measure(request, runtime);
    } catch (RuntimeException e) {
      // The probe failed before it could enumerate its targets (the device count, say).
      run =
          ProbeRun.failedBeforeTargets(
              request.probe(),
              TargetResult.error(request.probe(), e, Durations.secondsSince(started)));
    } finally {
      runtime.close();
    }
    return run.withTolerated(runtime.toleratedFailures());
  }

  private static ProbeRun measure(WorkerRequest request, DeviceRuntime runtime) {
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
  }
}
