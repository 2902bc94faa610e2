package io.linkwatch.schedule;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.host.ProbeLock;
import io.linkwatch.passive.ActiveProbes;
import io.linkwatch.probe.TargetDevices;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.ToleratedFailure;
import io.linkwatch.state.ResultStore;
import io.linkwatch.worker.ProbeRunner;
import io.linkwatch.worker.WorkerRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs probes one at a time (one lane of device work: two probes at once would measure each other),
 * within the device-time budget, each in a worker process, and records the results. A probe that
 * finds the lane busy waits for it up to its own interval, then is counted as {@code skipped_busy}.
 *
 * <p>Targets skipped or discarded because a device ran other work are retried: every {@code
 * busy.retry} the worker checks their devices again and measures the first time they are idle,
 * until the next scheduled run takes over. A retry that finds the devices still busy costs a worker
 * start but no device time, so it is not charged to the budget; when another probe's check in the
 * last retry period already found the device busy, the retry takes that answer and starts none.
 */
public final class ProbeExecutor implements ProbeRuns {
  private static final Logger log = LoggerFactory.getLogger(ProbeExecutor.class);

  /** Waits between retries; tests pass one that returns at once. */
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final AgentConfig config;
  private final ResultStore store;
  private final ProbeRunner worker;
  private final DeviceBudget budget;
  private final Clock clock;
  private final Sleeper sleeper;

  /**
   * The lane of device work: a semaphore, not a lock, because a lease granted to a peer holds it
   * from one request's thread and gives it back from another's.
   */
  private final Semaphore lane = new Semaphore(1, true);

  private final Map<String, Duration> lastRun = new ConcurrentHashMap<>();
  private final ActiveProbes active;
  private final ProbeLock hostLock;
  private final java.util.concurrent.atomic.AtomicBoolean toldUncoordinated =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** The agent's: the system clock, real sleeps. */
  public ProbeExecutor(
      AgentConfig config,
      ResultStore store,
      ProbeRunner worker,
      DeviceBudget budget,
      ActiveProbes active) {
    this(config, store, worker, budget, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()), active);
  }

  /**
   * @param active where each run says which devices it measures, so passive reads leave them alone
   */
  public ProbeExecutor(
      AgentConfig config,
      ResultStore store,
      ProbeRunner worker,
      DeviceBudget budget,
      Clock clock,
      Sleeper sleeper,
      ActiveProbes active) {
    this.active = active;
    this.hostLock = new ProbeLock(config.probeLock());
    this.config = config;
    this.store = store;
    this.worker = worker;
    this.budget = budget;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * A scheduled run, then retries of the targets that wait for an idle device, while a retry (one
   * and a half times the probe's last run that reached the devices, plus a second) still fits
   * before {@code nextRun} (null: no next run).
   */
  @Override
  public void runScheduled(ProbeConfig probe, Instant nextRun) throws InterruptedException {
    runOnce(probe);
    BusyPolicy busy = config.busy();
    String id = probe.kind().id();
    while (busy.skips() && nextRun != null) {
      List<String> waiting = store.deferredTargets(id);
      if (waiting.isEmpty()) {
        return;
      }
      // A retry must end before the next firing, or Quartz would drop that run as misfired.
      Duration expected = lastRun.getOrDefault(id, Duration.ZERO);
      Duration margin = expected.plus(expected.dividedBy(2)).plus(Duration.ofSeconds(1));
      if (!clock.instant().plus(busy.retry()).plus(margin).isBefore(nextRun)) {
        log.debug("probe={} targets={} wait for the next scheduled run", id, waiting);
        return;
      }
      sleeper.sleep(busy.retry());
      retry(probe, waiting);
    }
  }

  public void runOnce(ProbeConfig probe) throws InterruptedException {
    String id = probe.kind().id();
    Duration wait = probe.schedule().nominalInterval().minus(probe.deadline());
    long waitUntil = System.nanoTime() + Math.max(0, wait.toNanos());
    if (!lane.tryAcquire(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS)) {
      log.info("probe={} result=skipped_busy: another probe held the device the whole time", id);
      store.recordSkip(id, Outcome.SKIPPED_BUSY);
      return;
    }
    Optional<ProbeLock.Held> held = Optional.empty();
    try {
      held = holdHostLock(id, Duration.ofNanos(Math.max(0, waitUntil - System.nanoTime())));
      if (held.isEmpty()) {
        log.info(
            "probe={} result=skipped_busy: {} held the devices the whole time",
            id,
            holderOrCheck());
        store.recordSkip(id, Outcome.SKIPPED_BUSY);
        return;
      }
      if (!budget.allows()) {
        log.info(
            "probe={} result=skipped_budget: probes used more than their share of device time this hour",
            id);
        store.recordSkip(id, Outcome.SKIPPED_BUDGET);
        return;
      }
      ProbeRun run = execute(probe, List.of(), store.knownTargets(id));
      store.record(run);
      logRun(run, false);
    } finally {
      held.ifPresent(ProbeLock.Held::close);
      lane.release();
    }
  }

  /**
   * The host-wide lock around a run, so that a {@code linkwatch check} never measures beside it;
   * empty when the check held it for all of {@code wait}. Without a usable lock file the run goes
   * on uncoordinated (said once in the log, at WARN: figures may be halved by a check beside it).
   */
  private Optional<ProbeLock.Held> holdHostLock(String probe, Duration wait)
      throws InterruptedException {
    Optional<ProbeLock.Held> held = hostLock.acquire("agent probe " + probe, wait);
    held.filter(h -> !h.coordinated())
        .filter(h -> !toldUncoordinated.getAndSet(true))
        .ifPresent(
            h ->
                log.warn(
                    "probe lock: {}: a linkwatch check may measure beside the agent's probes{}",
                    h.uncoordinatedBecause(),
                    h.remedy().isEmpty() ? "" : "; " + h.remedy()));
    return held;
  }

  private String holderOrCheck() {
    String holder = hostLock.holder();
    return holder.isEmpty() ? "a linkwatch check" : holder;
  }

  /**
   * Runs {@code waiting} again. A lane held by another probe or a spent budget just means "not this
   * time": the next retry or the scheduled run tries again, and no skip is counted.
   */
  private void retry(ProbeConfig probe, List<String> waiting) throws InterruptedException {
    if (!lane.tryAcquire(config.busy().retry().toMillis(), TimeUnit.MILLISECONDS)) {
      return;
    }
    Optional<ProbeLock.Held> held = Optional.empty();
    try {
      held = holdHostLock(probe.kind().id(), config.busy().retry());
      if (held.isEmpty() || !budget.allows()) {
        return;
      }
      Optional<ProbeRun> known = stillBusy(probe.kind().id(), waiting);
      if (known.isPresent()) {
        store.record(known.get(), true);
        return;
      }
      ProbeRun run = execute(probe, waiting, waiting);
      store.record(run, true);
      logRun(run, true);
    } finally {
      held.ifPresent(ProbeLock.Held::close);
      lane.release();
    }
  }

  /**
   * The retry's answer without a worker, when another probe's check within the last retry period
   * already found a device busy for every waiting target: probes that wait on the same job share
   * one check per period instead of starting a worker each (about a second of CPU apiece).
   */
  private Optional<ProbeRun> stillBusy(String probe, List<String> waiting) {
    // Not this probe's own checks: its previous retry is about one period old by design.
    Map<Integer, DeviceActivity> busy =
        store.busySeenByOthers(probe, clock.millis() - config.busy().retry().toMillis());
    List<TargetResult> results = new ArrayList<>();
    for (String target : waiting) {
      Optional<DeviceActivity> found =
          TargetDevices.of(target).stream().filter(busy::containsKey).map(busy::get).findFirst();
      if (found.isEmpty()) {
        return Optional.empty();
      }
      results.add(
          TargetResult.failure(target, Outcome.SKIPPED_DEVICE_BUSY, found.get().busyLine(), 0));
    }
    return Optional.of(ProbeRun.of(probe, results));
  }

  private ProbeRun execute(ProbeConfig probe, List<String> targets, List<String> reportAs)
      throws InterruptedException {
    String id = probe.kind().id();
    active.begin(id, devicesOf(targets.isEmpty() ? store.knownTargets(id) : targets));
    try {
      return measure(probe, targets, reportAs);
    } finally {
      active.end();
    }
  }

  /**
   * The devices targets name; empty (all devices) when one names none ({@code links}) or none are
   * known yet (a probe's first run).
   */
  static Set<Integer> devicesOf(List<String> targets) {
    Set<Integer> devices = new TreeSet<>();
    for (String t : targets) {
      List<Integer> named = TargetDevices.of(t);
      if (named.isEmpty()) {
        return Set.of();
      }
      devices.addAll(named);
    }
    return devices;
  }

  private ProbeRun measure(ProbeConfig probe, List<String> targets, List<String> reportAs) {
    String id = probe.kind().id();
    long started = System.nanoTime();
    ProbeRun run =
        worker.run(
            new WorkerRequest(
                id,
                probe.settings(),
                config.backend(),
                config.hostPaths(),
                config.topologyCommand(),
                config.busy(),
                targets,
                store.memoryBaselines()),
            probe.deadline(),
            reportAs);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    boolean touchedDevices =
        run.targets().isEmpty()
            || run.targets().stream().anyMatch(t -> t.outcome() != Outcome.SKIPPED_DEVICE_BUSY);
    if (touchedDevices) {
      budget.spent(took);
      lastRun.put(id, took);
    }
    return run;
  }

  /**
   * Holds the lane of device work and the host's probe lock for {@code who} (a run between two
   * hosts, here or granted to a peer), as a probe's run holds them; empty when a probe or a check
   * held them for all of {@code wait}. Closing the hold gives both back, from any thread.
   */
  public Optional<AutoCloseable> holdDevices(String who, Duration wait)
      throws InterruptedException {
    long until = System.nanoTime() + wait.toNanos();
    if (!lane.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      return Optional.empty();
    }
    Optional<ProbeLock.Held> held;
    try {
      held = holdHostLock(who, Duration.ofNanos(Math.max(0, until - System.nanoTime())));
    } catch (InterruptedException | RuntimeException e) {
      lane.release();
      throw e;
    }
    if (held.isEmpty()) {
      lane.release();
      return Optional.empty();
    }
    ProbeLock.Held lock = held.get();
    java.util.concurrent.atomic.AtomicBoolean released =
        new java.util.concurrent.atomic.AtomicBoolean();
    return Optional.of(
        () -> {
          if (!released.getAndSet(true)) {
            try {
              lock.close();
            } finally {
              lane.release();
            }
          }
        });
  }

  public void stop() {
    worker.stop();
  }

  private static void logRun(ProbeRun run, boolean retry) {
    if (!run.tolerated().isEmpty()) {
      // One line per run, however many: a reset that fails is a driver symptom, not the run's end.
      log.warn(
          "probe={} driver calls failed without failing the run: {}",
          run.probe(),
          run.tolerated().stream()
              .map(ToleratedFailure::detail)
              .distinct()
              .collect(Collectors.joining("; ")));
    }
    if (!run.skippedBecause().isEmpty()) {
      log.info("probe={} skipped: {}", run.probe(), run.skippedBecause());
      return;
    }
    for (TargetResult t : run.targets()) {
      if (retry && t.outcome() == Outcome.SKIPPED_DEVICE_BUSY) {
        // Still busy: said once when the wait began, not again every retry.
        log.debug("probe={} target={} still waits: {}", run.probe(), t.target(), t.error());
        continue;
      }
      String figure = t.measurements().isEmpty() ? "" : " " + t.measurements().get(0).summary();
      String error = t.error().isEmpty() ? "" : " error=\"" + t.error() + "\"";
      // A run that failed before it knew its targets (its first, or one stopped with the agent)
      // carries the probe's name as its one target, for the series; a log line saying
      // "target=device_memory" would name a target that does not exist.
      String target = run.failedBeforeTargets() ? "targets=unknown" : "target=" + t.target();
      log.info(
          String.format(
              Locale.ROOT,
              "probe=%s %s result=%s duration=%.2fs%s%s%s",
              run.probe(),
              target,
              t.outcome().label(),
              t.durationSeconds(),
              figure,
              error,
              retry ? " (retry for an idle device)" : ""));
    }
  }
}
