package io.linkwatch.passive;

import io.linkwatch.process.ChildLogRelay;
import io.linkwatch.process.ChildProcess;
import io.linkwatch.process.JavaCommand;
import io.linkwatch.process.PostMortem;
import io.linkwatch.process.ProcessFootprint;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.backends.ChildEnvironment;
import io.linkwatch.runtime.calls.CallJournalFile;
import io.linkwatch.runtime.calls.JournalEntry;
import io.linkwatch.util.Durations;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's side of the long-lived watcher process ({@link WatcherMain}): started on first use,
 * asked for one read round at a time, each under a deadline. A round past its deadline kills the
 * watcher and names the call it hung in (from its call journal, read while it still hangs); a
 * watcher that dies is named with its exit status, the call it died in and its last stderr lines.
 * Either way the next round starts a fresh watcher, so a hang that clears costs one round.
 *
 * <p>A process rather than a thread: a vendor library that crashes takes only the watcher with it,
 * and a hung call can be ended by killing it. Long-lived rather than one per round: a JVM start
 * costs about a CPU-second, and the library's own initialization more; at 15 s per round a process
 * per round would cost more than everything else the agent does.
 */
public final class WatcherProcess implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WatcherProcess.class);
  private static final String EOF = "\u0000eof";

  /**
   * How long a watcher may take to open the runtime before it is taken for hung. A JVM start and
   * the library's initialization take far longer than a read round on a loaded host (seconds, on
   * two busy cores), and a start killed at the round's deadline is started again under the same
   * load: held to the deadline, a watcher on such a host never reads at all.
   */
  static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final List<String> command;
  private final Duration startTimeout;

  /** The watcher's log lines in this log: {@code WARN DcmiSource: watcher: dcmi_init failed}. */
  private final ChildLogRelay childLog = new ChildLogRelay("io.linkwatch.passive", log);

  private final java.util.Map<String, String> environment;
  private volatile ChildProcess process;
  private OutputStream requests;
  private BlockingQueue<String> lines;
  private CallJournalFile journal;

  /**
   * When the running watcher was launched (System.nanoTime), and whether it has said it is ready.
   */
  private long launchedNanos;

  private boolean ready;

  /** Watchers started: for {@link #footprint}. Written under the lock only. */
  private volatile long starts;

  /**
   * The CPU seconds of every watcher: those no longer running (each at its last sample) plus the
   * running one's. Kept under its own lock, never the one a round holds, so a scrape never waits
   * for a read; the total reported never goes down.
   */
  private final Object cpuLock = new Object();

  private double cpuOfEarlier;
  private long sampledPid = -1;
  private double sampledCpu;
  private double reportedCpu;

  /**
   * The watcher's cost, for {@code /metrics}: its resident memory now (null while none runs), the
   * CPU seconds all watchers of this agent have used, and how many have been started (a rising
   * count is a watcher that keeps dying or hanging).
   */
  public record Footprint(Long residentBytes, double cpuSecondsTotal, long starts) {}

  /**
   * Read without the lock a round holds (up to its deadline), so a scrape never waits for a read. A
   * watcher that is replaced counts with its CPU at its last sample (a scrape's, or the one taken
   * just before it is killed); one that died on its own counts up to the last scrape's.
   */
  public Footprint footprint() {
    ChildProcess p = process;
    Optional<ProcessFootprint> now =
        p == null ? Optional.empty() : ProcessFootprint.of(PROCFS, p.pid());
    double cpu;
    synchronized (cpuLock) {
      double running = 0;
      if (p != null && now.isPresent()) {
        sample(p.pid(), now.get().cpuSeconds());
        running = p.pid() == sampledPid ? sampledCpu : 0;
      }
      reportedCpu = Math.max(reportedCpu, cpuOfEarlier + running);
      cpu = reportedCpu;
    }
    return new Footprint(now.map(ProcessFootprint::residentBytes).orElse(null), cpu, starts);
  }

  /** The latest CPU of watcher {@code pid}; a new pid retires the previous one's last sample. */
  private void sample(long pid, double cpuSeconds) {
    if (pid != sampledPid) {
      retire();
      sampledPid = pid;
      sampledCpu = 0;
    }
    sampledCpu = Math.max(sampledCpu, cpuSeconds);
  }

  /** The sampled watcher is gone: its last sample joins the earlier ones. */
  private void retire() {
    if (sampledPid != -1) {
      cpuOfEarlier += sampledCpu;
      sampledPid = -1;
      sampledCpu = 0;
    }
  }

  private static final Path PROCFS = Path.of("/proc");

  /** What a round gave: the watcher's answer, or why there is none. */
  public record Outcome(WatchRound round, String result, String error, String call) {
    static Outcome success(WatchRound round) {
      return new Outcome(round, "success", null, null);
    }

    /** The watcher is still within its start timeout: no reading yet, and nothing failed. */
    public boolean starting() {
      return result.equals(STARTING);
    }
  }

  private static final String STARTING = "starting";

  /** A watcher for {@code backend} that runs with the workers' JVM options. */
  public WatcherProcess(Backend backend, List<String> javaOptions) {
    this(defaultCommand(backend, javaOptions), java.util.Map.of());
  }

  /** A watcher started by {@code command} with {@code environment} added (tests). */
  WatcherProcess(List<String> command, java.util.Map<String, String> environment) {
    this(command, environment, START_TIMEOUT);
  }

  /** The same with its own start timeout (tests). */
  WatcherProcess(
      List<String> command, java.util.Map<String, String> environment, Duration startTimeout) {
    this.command = List.copyOf(command);
    this.environment = java.util.Map.copyOf(environment);
    this.startTimeout = startTimeout;
  }

  /**
   * The watcher's heap, before the configured options (a later value of the same option wins; a
   * {@code worker.java_options} that sizes the heap another way, e.g. {@code -XX:NewRatio} or an
   * {@code -Xmx} under 8m, meets these too): it lives as long as the agent, and a JVM's default
   * initial heap (1/64 of the host's memory) sizes a young generation that each round's few
   * kilobytes of garbage fill page by page: 140 MiB resident after 3,000 rounds on a 24 GiB host,
   * 53 MiB with these ({@code scripts/watcher-rss.sh}). The agent's own JVM has the same in {@code
   * linkwatch.default}.
   */
  static final List<String> HEAP =
      List.of("-Xms8m", "-Xmn2m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20");

  static List<String> defaultCommand(Backend backend, List<String> javaOptions) {
    List<String> cmd = new ArrayList<>(JavaCommand.current());
    List<String> options = new ArrayList<>(HEAP);
    options.addAll(javaOptions);
    cmd.addAll(JavaCommand.childJvmOptions(options));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(WatcherMain.class.getName());
    cmd.add(backend.id());
    return cmd;
  }

  /**
   * Starts the watcher if none runs, and waits at most {@code wait} until it has opened the runtime
   * (its first line): empty when it is ready, else why not. A watcher that is not ready within
   * {@code wait} is left to start (the outcome says {@link Outcome#starting()}) until it has taken
   * the start timeout; only then is it killed as hung. Slow start-up is thus neither charged to a
   * round, during which probes wait, nor mistaken for a hang.
   */
  public synchronized java.util.Optional<Outcome> start(Duration wait) {
    if (ready && process != null && process.isAlive()) {
      return java.util.Optional.empty();
    }
    if (ready && process != null) {
      // it died between rounds: say how (its exit, last call and stderr) before a fresh one starts
      String line;
      try {
        line = lines.poll(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop();
        return java.util.Optional.of(
            new Outcome(null, "error", "interrupted: the agent is stopping", null));
      }
      if (EOF.equals(line)) {
        return java.util.Optional.of(outcome(line, wait, "read round"));
      }
    }
    if (process == null || ready) {
      try {
        ensureStarted();
      } catch (IOException e) {
        stop();
        return java.util.Optional.of(
            new Outcome(null, "error", "cannot start the watcher: " + e.getMessage(), null));
      }
    }
    long left = startTimeout.toNanos() - (System.nanoTime() - launchedNanos);
    String line;
    try {
      line = lines.poll(Math.max(0, Math.min(wait.toNanos(), left)), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return java.util.Optional.of(
          new Outcome(null, "error", "interrupted: the agent is stopping", null));
    }
    long elapsed = System.nanoTime() - launchedNanos;
    if (line == null && elapsed < startTimeout.toNanos()) {
      return java.util.Optional.of(
          new Outcome(
              null,
              STARTING,
              String.format(
                  Locale.ROOT,
                  "the watcher is still starting (%.1f s of its %s)",
                  elapsed / 1e9,
                  Durations.format(startTimeout)),
              null));
    }
    Outcome first = outcome(line, startTimeout, "start");
    if (first.round() == null) {
      return java.util.Optional.of(first);
    }
    ready = true;
    return java.util.Optional.empty();
  }

  /** One read round: every device but {@code skip}, links only. */
  public Outcome round(List<Integer> skip, Duration deadline) {
    return round(skip, false, deadline);
  }

  /** One read round: every device but {@code skip}, with the NPUs' own ports if asked. */
  public synchronized Outcome round(List<Integer> skip, boolean npuPorts, Duration deadline) {
    java.util.Optional<Outcome> notReady = start(deadline);
    if (notReady.isPresent()) {
      return notReady.get();
    }
    try {
      requests.write(
          (PassiveJson.JSON.write(new WatchRequest(skip, npuPorts)) + "\n")
              .getBytes(StandardCharsets.UTF_8));
      requests.flush();
    } catch (IOException e) {
      // Its stdin closed: it is dying; the answer below says how.
      log.debug("watcher stdin: {}", e.getMessage());
    }
    return answer(deadline, "read round");
  }

  /** The watcher's next line within {@code deadline}, or why there is none. */
  private Outcome answer(Duration deadline, String what) {
    String line;
    try {
      line = lines.poll(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return new Outcome(null, "error", "interrupted: the agent is stopping", null);
    }
    return outcome(line, deadline, what);
  }

  /** What the watcher's line (null: none within {@code deadline}) says. */
  private Outcome outcome(String line, Duration deadline, String what) {
    if (line == null) {
      // Read the journal while the call still hangs, then kill: the next round starts afresh.
      long now = System.currentTimeMillis();
      PostMortem.Finding f = PostMortem.timeout(entries(), deadline, now, "watcher", what);
      log.warn("passive watcher: {}", f.error());
      stop();
      return new Outcome(null, "timeout", f.error(), emptyToNull(f.call()));
    }
    if (line.equals(EOF)) {
      int status;
      List<String> tail;
      try {
        status = process.exitStatus();
        tail = process.stderrTail();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        status = -1;
        tail = List.of();
      }
      PostMortem.Finding f = PostMortem.died(entries(), status, tail, "watcher");
      log.warn("passive watcher: {}", f.error());
      stop();
      return new Outcome(null, "error", f.error(), emptyToNull(f.call()));
    }
    try {
      return Outcome.success(PassiveJson.JSON.read(line, WatchRound.class));
    } catch (IOException e) {
      stop();
      return new Outcome(null, "error", "watcher output unreadable: " + e.getMessage(), null);
    }
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private void ensureStarted() throws IOException {
    if (process != null && process.isAlive()) {
      return;
    }
    stop();
    journal = CallJournalFile.create(Path.of(System.getProperty("java.io.tmpdir")));
    Path journalPath = journal.path();
    ChildProcess p =
        ChildProcess.start(
            command,
            env -> {
              // As a worker's: no exit hold for device logs (a watcher that exits has nothing to
              // flush).
              ChildEnvironment.apply(env);
              env.putAll(environment);
              env.put(CallJournalFile.ENV, journalPath.toString());
            },
            childLog,
            "watcher");
    process = p;
    starts++;
    launchedNanos = System.nanoTime();
    ready = false;
    requests = p.stdin();
    lines = new LinkedBlockingQueue<>();
    BlockingQueue<String> out = lines;
    ChildProcess.daemon(
        "watcher-stdout",
        () -> {
          try (BufferedReader r =
              new BufferedReader(new InputStreamReader(p.stdout(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
              out.add(line);
            }
          } catch (IOException e) {
            log.debug("watcher stdout closed: {}", e.getMessage());
          }
          out.add(EOF);
        });
    log.info("passive watcher started (pid {})", process.pid());
  }

  private List<JournalEntry> entries() {
    try {
      return journal == null ? List.of() : journal.read();
    } catch (UncheckedIOException e) {
      log.debug("watcher call journal unreadable: {}", e.getMessage());
      return List.of();
    }
  }

  /** The watcher's pid while one runs (for tests and the benchmark). */
  public synchronized long pid() {
    return process != null && process.isAlive() ? process.pid() : -1;
  }

  private void stop() {
    if (process != null) {
      // its CPU up to now, while /proc still has it; then it counts among the earlier ones
      long pid = process.pid();
      Optional<ProcessFootprint> last = ProcessFootprint.of(PROCFS, pid);
      synchronized (cpuLock) {
        last.ifPresent(f -> sample(pid, f.cpuSeconds()));
        if (sampledPid == pid) {
          retire();
        }
      }
      process.kill();
      process = null;
    }
    ready = false;
    if (journal != null) {
      journal.close();
      journal = null;
    }
  }

  /** Kills the watcher at once, even while a round waits for it (the round then ends). */
  @Override
  public void close() {
    ChildProcess p = process;
    if (p != null) {
      p.kill();
    }
    synchronized (this) {
      stop();
    }
  }
}
