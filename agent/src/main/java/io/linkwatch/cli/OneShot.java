package io.linkwatch.cli;

import io.linkwatch.activity.ActivityGate;
import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.DeviceGate;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.TopologySource;
import io.linkwatch.status.ProbeRunDocument;
import io.linkwatch.status.StatusCodec;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a probe once in this process for the {@code probe} commands: prints the table (or JSON) on
 * stdout, one line per failed target on stderr, and on a terminal one progress line ({@link
 * ProgressLine}) once the run has taken more than a second. Targets whose devices run other work
 * are not measured (unless {@code --force}): one line names the busy devices and why, and the exit
 * status is {@link Main#EXIT_DEVICE_BUSY}.
 */
final class OneShot {
  private static final Logger log = LoggerFactory.getLogger(OneShot.class);

  private OneShot() {}

  /** Runs {@code probe} with the command's topology lookup; output to the command's writers. */
  static int run(
      DeviceRuntime runtime,
      ProbeOptions options,
      picocli.CommandLine.Model.CommandSpec spec,
      Probe probe,
      Consumer<ProbeRun> table) {
    ActivityGate gate = gate(runtime, options);
    int status =
        run(
            runtime,
            Runtimes.topologySource(options.topologyCommand),
            gate,
            probe,
            options.json,
            spec.commandLine().getOut(),
            spec.commandLine().getErr(),
            table);
    log.debug("device activity checks: {}", gate.cost());
    return status;
  }

  /** The busy-device check of a one-shot command: busy devices are left alone unless --force. */
  static ActivityGate gate(DeviceRuntime runtime, ProbeOptions options) {
    BusyPolicy policy =
        options.force
            ? BusyPolicy.DEFAULTS.withPolicy(BusyPolicy.Mode.IGNORE)
            : BusyPolicy.DEFAULTS;
    return ActivityGate.standard(policy, runtime, Map.of());
  }

  static int run(
      DeviceRuntime runtime,
      TopologySource topology,
      DeviceGate gate,
      Probe probe,
      boolean json,
      PrintWriter out,
      PrintWriter err,
      Consumer<ProbeRun> table) {
    ProgressLine progress = ProgressLine.start(err, "linkwatch");
    ProbeRun run;
    try {
      run =
          probe
              .run(
                  new ProbeContext(
                      runtime,
                      topology,
                      HostPaths.system(),
                      ProgressLine.of(progress),
                      gate,
                      Set.of()))
              .withDevices(gate.activity());
    } finally {
      ProgressLine.close(progress);
    }
    if (!run.skippedBecause().isEmpty()) {
      err.println("linkwatch: skipped: " + run.skippedBecause());
    }
    if (json) {
      out.println(StatusCodec.encodePart(ProbeRunDocument.of(run)));
    } else {
      table.accept(run);
    }
    out.flush();
    int failed = 0;
    boolean waited = false;
    for (TargetResult t : run.targets()) {
      if (t.outcome().deferred()) {
        waited = true;
      } else if (!t.error().isEmpty()) {
        err.println("linkwatch: " + run.probe() + " " + t.target() + ": " + t.error());
        failed++;
      }
    }
    if (waited) {
      err.println("linkwatch: " + busyLine(run.devices()) + "; measure anyway with --force");
    }
    err.flush();
    return failed > 0 ? Main.EXIT_FAILED : waited ? Main.EXIT_DEVICE_BUSY : 0;
  }

  /** E.g. {@code device 1 is busy: pid 4242 holds 2GiB, aicore 80%}, every busy device. */
  private static String busyLine(List<DeviceActivity> devices) {
    return devices.stream()
        .filter(DeviceActivity::busy)
        .map(DeviceActivity::busyLine)
        .collect(Collectors.joining("; "));
  }
}
