package io.linkwatch.cli;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.TopologySource;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.Json;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * Runs a probe once in this process for the {@code probe} commands: prints the table (or JSON) on
 * stdout, one line per failed target on stderr, and progress on stderr once the run has taken more
 * than a second.
 */
final class OneShot {
  private OneShot() {}

  /** Runs {@code probe} with the command's topology lookup; output to the command's writers. */
  static int run(
      DeviceRuntime runtime,
      ProbeOptions options,
      picocli.CommandLine.Model.CommandSpec spec,
      Probe probe,
      Consumer<ProbeRun> table) {
    return run(
        runtime,
        Runtimes.topologySource(options.topologyCommand),
        probe,
        options.json,
        spec.commandLine().getOut(),
        spec.commandLine().getErr(),
        table);
  }

  static int run(
      DeviceRuntime runtime,
      TopologySource topology,
      Probe probe,
      boolean json,
      PrintWriter out,
      PrintWriter err,
      Consumer<ProbeRun> table) {
    ProbeRun run =
        probe.run(new ProbeContext(runtime, topology, HostPaths.system(), progress(err)));
    if (!run.skippedBecause().isEmpty()) {
      err.println("linkwatch: skipped: " + run.skippedBecause());
    }
    if (json) {
      try {
        out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(run));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      table.accept(run);
    }
    out.flush();
    int failed = 0;
    for (TargetResult t : run.targets()) {
      if (!t.error().isEmpty()) {
        err.println("linkwatch: " + run.probe() + " " + t.target() + ": " + t.error());
        failed++;
      }
    }
    err.flush();
    return failed > 0 ? Main.EXIT_FAILED : 0;
  }

  /** Progress lines appear only for sweeps that last more than a second. */
  private static Progress progress(PrintWriter err) {
    long started = System.nanoTime();
    return step -> {
      if (System.nanoTime() - started > 1_000_000_000L) {
        err.println("... " + step);
        err.flush();
      }
    };
  }
}
