package io.linkwatch.worker;

import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.util.Durations;
import io.linkwatch.util.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one probe in a fresh worker process (this jar's {@code worker} command) under a deadline. A
 * process per run keeps a hung or crashed driver from sharing a fate with {@code /metrics}, and
 * leaves nothing behind between runs: the next run starts clean.
 *
 * <ul>
 *   <li>past the deadline the worker is killed and every target gets {@code timeout};
 *   <li>a worker that dies (a driver crash) gives {@code error} with its exit status;
 *   <li>its stderr lines are relayed to this log, prefixed with the probe.
 * </ul>
 */
public final class WorkerProcess implements ProbeRunner {
  private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);

  private final List<String> javaOptions;
  private final AtomicReference<Process> running = new AtomicReference<>();
  private final java.util.Set<String> warningsSeen =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final List<String> command;

  public WorkerProcess(List<String> javaOptions) {
    this.javaOptions = List.copyOf(javaOptions);
    this.command = null;
  }

  /** A worker started by {@code command} instead of this jar (tests use a shell script). */
  WorkerProcess(List<String> command, boolean custom) {
    this.javaOptions = List.of();
    this.command = List.copyOf(command);
  }

  /**
   * @param knownTargets the probe's targets from earlier runs, to report a run that died
   */
  @Override
  public ProbeRun run(WorkerRequest request, Duration deadline, List<String> knownTargets) {
    long started = System.nanoTime();
    Process process;
    try {
      process = new ProcessBuilder(command()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    } catch (IOException e) {
      return failed(
          request.probe(),
          knownTargets,
          Outcome.ERROR,
          "cannot start worker: " + e.getMessage(),
          started);
    }
    running.set(process);
    try {
      CompletableFuture<String> stdout = readAll(process.getInputStream());
      relay(process.getErrorStream(), request.probe());
      try (OutputStream in = process.getOutputStream()) {
        in.write(Json.MAPPER.writeValueAsBytes(request));
      }
      if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(process);
        return failed(
            request.probe(),
            knownTargets,
            Outcome.TIMEOUT,
            "the run did not finish within its deadline of "
                + Durations.format(deadline)
                + "; the worker was killed",
            started);
      }
      String json = stdout.get(5, TimeUnit.SECONDS);
      int status = process.exitValue();
      if (status != 0 || json.isBlank()) {
        return failed(request.probe(), knownTargets, Outcome.ERROR, describeExit(status), started);
      }
      return ProbeKind.JSON.readValue(json, ProbeRun.class);
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      return failed(
          request.probe(),
          knownTargets,
          Outcome.ERROR,
          "interrupted: the agent is stopping",
          started);
    } catch (IOException | ExecutionException | TimeoutException e) {
      kill(process);
      return failed(
          request.probe(),
          knownTargets,
          Outcome.ERROR,
          "worker output unreadable: " + e.getMessage(),
          started);
    } finally {
      running.set(null);
    }
  }

  /** Kills the worker of the run in progress, if any (on shutdown). */
  @Override
  public void stop() {
    Process p = running.get();
    if (p != null) {
      kill(p);
    }
  }

  static String describeExit(int status) {
    if (status > 128) {
      return "worker died with signal " + (status - 128) + " (exit status " + status + ")";
    }
    return "worker exited with status " + status + " without a result";
  }

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ProbeRun failed(
      String probe, List<String> targets, Outcome outcome, String error, long started) {
    double seconds = (System.nanoTime() - started) / 1e9;
    List<String> names = targets.isEmpty() ? List.of(probe) : targets;
    List<TargetResult> results = new ArrayList<>();
    for (String t : names) {
      results.add(TargetResult.failure(t, outcome, error, seconds));
    }
    return ProbeRun.of(probe, results);
  }

  /** The same Java and classpath as this process: the worker is this jar. */
  List<String> command() {
    if (command != null) {
      return command;
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(javaOptions);
    // The worker is short-lived: a small heap, the client compiler and no crash dumps in cwd.
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:-CreateCoredumpOnCrash");
    cmd.add(
        "-XX:ErrorFile="
            + System.getProperty("java.io.tmpdir")
            + "/linkwatch-worker-hs_err_%p.log");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.linkwatch.cli.Main");
    cmd.add("worker");
    return cmd;
  }

  private static CompletableFuture<String> readAll(InputStream in) {
    CompletableFuture<String> f = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                f.completeExceptionally(e);
              }
            },
            "worker-stdout");
    t.setDaemon(true);
    t.start();
    return f;
  }

  /**
   * Relays a worker's stderr to this log. A worker lives for one run, so a condition it warns about
   * once per process (say, numa_maps unreadable) would be warned about at every run: a warning
   * already relayed for this probe goes to the debug level instead.
   */
  private void relay(InputStream err, String probe) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  if (line.startsWith("WARN") && !warningsSeen.add(probe + " " + line)) {
                    log.debug("worker {}: {}", probe, line);
                  } else {
                    log.info("worker {}: {}", probe, line);
                  }
                }
              } catch (IOException e) {
                log.debug("worker {} stderr closed: {}", probe, e.getMessage());
              }
            },
            "worker-stderr");
    t.setDaemon(true);
    t.start();
  }
}
