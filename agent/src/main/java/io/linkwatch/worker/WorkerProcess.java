package io.linkwatch.worker;

import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.process.ChildLogRelay;
import io.linkwatch.process.JavaCommand;
import io.linkwatch.process.PostMortem;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.ascend.DeviceLogFlush;
import io.linkwatch.runtime.backends.ChildEnvironment;
import io.linkwatch.runtime.calls.CallJournalFile;
import io.linkwatch.runtime.calls.JournalEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
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
 *   <li>past the deadline the worker is killed and every target gets {@code timeout}, naming the
 *       driver call it hung in (from its {@link CallJournalFile call journal});
 *   <li>a worker that dies (a driver crash) gives {@code error} with its exit status, the call it
 *       died in and its last stderr lines;
 *   <li>its stderr lines are relayed to this log, prefixed with the probe.
 * </ul>
 */
public final class WorkerProcess implements ProbeRunner {
  private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);

  /** A worker exits after every run: no exit hold for device logs (see {@link DeviceLogFlush}). */
  static final String DEVICE_LOG_FLUSH_TIMEOUT = DeviceLogFlush.VARIABLE;

  private final List<String> javaOptions;
  private final AtomicReference<Process> running = new AtomicReference<>();

  /** Worker lines in this log: {@code INFO TopologyProbe: worker topology: 2 devices}. */
  private final ChildLogRelay childLog = new ChildLogRelay("io.linkwatch.worker", log);

  private final List<String> command;
  private final Optional<WorkerClassArchive> classArchive;
  private final String classPath;

  public WorkerProcess(List<String> javaOptions) {
    this(
        javaOptions,
        WorkerClassArchive.configured(JavaCommand.childJvmOptions(javaOptions)),
        System.getProperty("java.class.path"));
  }

  /** Workers on {@code classPath}, starting from {@code classArchive} where there is one. */
  WorkerProcess(
      List<String> javaOptions, Optional<WorkerClassArchive> classArchive, String classPath) {
    this.javaOptions = List.copyOf(javaOptions);
    this.command = null;
    this.classArchive = classArchive;
    this.classPath = classPath;
  }

  /** A worker started by {@code command} instead of this jar (tests use a shell script). */
  WorkerProcess(List<String> command, boolean custom) {
    this.javaOptions = List.of();
    this.command = List.copyOf(command);
    this.classArchive = Optional.empty();
    this.classPath = null;
  }

  /**
   * @param knownTargets the probe's targets from earlier runs, to report a run that failed before
   *     it knew its own
   */
  @Override
  public ProbeRun run(WorkerRequest request, Duration deadline, List<String> knownTargets) {
    return runWorker(request, deadline).onTargets(knownTargets);
  }

  private ProbeRun runWorker(WorkerRequest request, Duration deadline) {
    long started = System.nanoTime();
    Optional<CallJournalFile> journal = createJournal();
    try {
      return runWorker(request, deadline, journal, started);
    } finally {
      journal.ifPresent(CallJournalFile::close);
    }
  }

  private ProbeRun runWorker(
      WorkerRequest request, Duration deadline, Optional<CallJournalFile> journal, long started) {
    String probe = request.probe();
    Process process;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command()).redirectInput(ProcessBuilder.Redirect.PIPE);
      journal.ifPresent(j -> builder.environment().put(CallJournalFile.ENV, j.path().toString()));
      applyEnvironment(builder.environment());
      process = builder.start();
    } catch (IOException e) {
      return failed(probe, Outcome.ERROR, "cannot start worker: " + e.getMessage(), "", started);
    }
    running.set(process);
    try {
      CompletableFuture<String> stdout = readAll(process.getInputStream());
      StderrRelay stderr = relay(process.getErrorStream(), probe);
      try (OutputStream in = process.getOutputStream()) {
        in.write(ProbeKind.JSON.write(request).getBytes(StandardCharsets.UTF_8));
      }
      if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
        long killedAt = System.currentTimeMillis();
        kill(process);
        PostMortem.Finding f = PostMortem.timeout(entries(journal), deadline, killedAt);
        log.warn("probe={} {}", probe, f.error());
        return failed(probe, Outcome.TIMEOUT, f.error(), f.call(), started);
      }
      String json = stdout.get(5, TimeUnit.SECONDS);
      int status = process.exitValue();
      if (status != 0 || json.isBlank()) {
        classArchive.ifPresent(a -> a.workerExited(false));
        PostMortem.Finding f = PostMortem.died(entries(journal), status, stderr.tail());
        log.warn("probe={} {}", probe, f.error());
        return failed(probe, Outcome.ERROR, f.error(), f.call(), started);
      }
      ProbeRun run = ProbeKind.JSON.read(json, ProbeRun.class);
      classArchive.ifPresent(
          a ->
              a.workerExited(run.targets().stream().anyMatch(t -> t.outcome() == Outcome.SUCCESS)));
      return run;
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      return failed(probe, Outcome.ERROR, "interrupted: the agent is stopping", "", started);
    } catch (IOException | ExecutionException | TimeoutException e) {
      kill(process);
      return failed(
          probe, Outcome.ERROR, "worker output unreadable: " + e.getMessage(), "", started);
    } finally {
      running.set(null);
    }
  }

  /** What a worker's environment adds to the agent's: {@link ChildEnvironment}. */
  public static void applyEnvironment(java.util.Map<String, String> env) {
    ChildEnvironment.apply(env);
  }

  /**
   * A journal for the run, in the temporary directory (private to the service under systemd); a run
   * without one only loses the diagnosis of a hang or crash.
   */
  private static Optional<CallJournalFile> createJournal() {
    try {
      return Optional.of(CallJournalFile.create(Path.of(System.getProperty("java.io.tmpdir"))));
    } catch (IOException e) {
      log.debug("no call journal for this run: {}", e.getMessage());
      return Optional.empty();
    }
  }

  private static List<JournalEntry> entries(Optional<CallJournalFile> journal) {
    try {
      return journal.map(CallJournalFile::read).orElse(List.of());
    } catch (UncheckedIOException e) {
      log.debug("call journal unreadable: {}", e.getMessage());
      return List.of();
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

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A run that ended without the worker's result: its targets are the ones known before. */
  private static ProbeRun failed(
      String probe, Outcome outcome, String error, String call, long started) {
    double seconds = (System.nanoTime() - started) / 1e9;
    return ProbeRun.failedBeforeTargets(
        probe, TargetResult.failure(probe, outcome, error, seconds, call));
  }

  /** The same Java ({@link JavaCommand}) and classpath as this process: the worker is this jar. */
  List<String> command() {
    if (command != null) {
      return command;
    }
    List<String> cmd = new ArrayList<>(JavaCommand.current());
    cmd.addAll(JavaCommand.childJvmOptions(javaOptions));
    classArchive.ifPresent(a -> cmd.addAll(a.options()));
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(WorkerMain.class.getName());
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

  /** A worker's stderr as it is relayed, and its last lines for a report of its death. */
  private static final class StderrRelay {
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread thread;

    StderrRelay(Thread thread) {
      this.thread = thread;
    }

    synchronized void add(String line) {
      if (tail.size() == PostMortem.STDERR_LINES) {
        tail.removeFirst();
      }
      tail.addLast(line);
    }

    /** The last lines, once the worker's stderr has been read to its end (or a second passed). */
    List<String> tail() throws InterruptedException {
      thread.join(1000);
      synchronized (this) {
        return List.copyOf(tail);
      }
    }
  }

  /**
   * Relays a worker's stderr to this log ({@link ChildLogRelay}: a warning it gave at an earlier
   * run goes to the debug level), keeping its last lines for a report of its death.
   */
  private StderrRelay relay(InputStream err, String probe) {
    StderrRelay[] relay = new StderrRelay[1];
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  relay[0].add(line);
                  childLog.relay("worker " + probe, line);
                }
              } catch (IOException e) {
                log.debug("worker {} stderr closed: {}", probe, e.getMessage());
              }
            },
            "worker-stderr");
    t.setDaemon(true);
    relay[0] = new StderrRelay(t);
    t.start();
    return relay[0];
  }
}
