package io.linkwatch.worker;

import io.linkwatch.host.ParentDeath;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.process.ChildLogRelay;
import io.linkwatch.process.ChildProcess;
import io.linkwatch.process.JavaCommand;
import io.linkwatch.process.PostMortem;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.ascend.DeviceLogFlush;
import io.linkwatch.runtime.backends.ChildEnvironment;
import io.linkwatch.runtime.calls.CallJournalFile;
import io.linkwatch.runtime.calls.JournalEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
  private final AtomicReference<ChildProcess> running = new AtomicReference<>();

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
    ChildProcess process;
    try {
      process =
          ChildProcess.start(
              command(),
              env -> {
                journal.ifPresent(j -> env.put(CallJournalFile.ENV, j.path().toString()));
                applyEnvironment(env);
                ParentDeath.pass(env);
              },
              childLog,
              "worker " + probe);
    } catch (IOException e) {
      return failed(probe, Outcome.ERROR, "cannot start worker: " + e.getMessage(), "", started);
    }
    running.set(process);
    try {
      CompletableFuture<String> stdout = readAll(process.stdout());
      try (OutputStream in = process.stdin()) {
        in.write(ProbeKind.JSON.write(request).getBytes(StandardCharsets.UTF_8));
      }
      if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
        long killedAt = System.currentTimeMillis();
        process.kill();
        PostMortem.Finding f = PostMortem.timeout(entries(journal), deadline, killedAt);
        log.warn("probe={} {}", probe, f.error());
        return failed(probe, Outcome.TIMEOUT, f.error(), f.call(), started);
      }
      String json = stdout.get(5, TimeUnit.SECONDS);
      int status = process.exitValue();
      if (status != 0 || json.isBlank()) {
        classArchive.ifPresent(a -> a.workerExited(false));
        PostMortem.Finding f = PostMortem.died(entries(journal), status, process.stderrTail());
        log.warn("probe={} {}", probe, f.error());
        return failed(probe, Outcome.ERROR, f.error(), f.call(), started);
      }
      ProbeRun run = ProbeKind.JSON.read(json, ProbeRun.class);
      classArchive.ifPresent(
          a ->
              a.workerExited(run.targets().stream().anyMatch(t -> t.outcome() == Outcome.SUCCESS)));
      return run;
    } catch (InterruptedException e) {
      process.kill();
      Thread.currentThread().interrupt();
      return failed(probe, Outcome.ERROR, "interrupted: the agent is stopping", "", started);
    } catch (IOException | ExecutionException | TimeoutException e) {
      process.kill();
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
    ChildProcess p = running.get();
    if (p != null) {
      p.kill();
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
    ChildProcess.daemon(
        "worker-stdout",
        () -> {
          try {
            f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          } catch (IOException e) {
            f.completeExceptionally(e);
          }
        });
    return f;
  }
}
