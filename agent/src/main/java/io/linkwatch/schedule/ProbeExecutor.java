package io.linkwatch.schedule;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.metrics.ResultStore;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.worker.WorkerProcess;
import io.linkwatch.worker.WorkerRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs probes one at a time (one lane of device work: two probes at once would measure each other),
 * within the device-time budget, each in a worker process, and records the results. A probe that
 * finds the lane busy waits for it up to its own interval, then is counted as {@code skipped_busy}.
 */
public final class ProbeExecutor {
  private static final Logger log = LoggerFactory.getLogger(ProbeExecutor.class);

  private final AgentConfig config;
  private final ResultStore store;
  private final WorkerProcess worker;
  private final DeviceBudget budget;
  private final ReentrantLock lane = new ReentrantLock(true);

  public ProbeExecutor(
      AgentConfig config, ResultStore store, WorkerProcess worker, DeviceBudget budget) {
    this.config = config;
    this.store = store;
    this.worker = worker;
    this.budget = budget;
  }

  public void runOnce(ProbeConfig probe) throws InterruptedException {
    String id = probe.kind().id();
    Duration wait = probe.schedule().nominalInterval().minus(probe.deadline());
    if (!lane.tryLock(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS)) {
      log.info("probe={} result=skipped_busy: another probe held the device the whole time", id);
      store.recordSkip(id, Outcome.SKIPPED_BUSY);
      return;
    }
    try {
      if (!budget.allows()) {
        log.info(
            "probe={} result=skipped_budget: probes used more than their share of device time this hour",
            id);
        store.recordSkip(id, Outcome.SKIPPED_BUDGET);
        return;
      }
      long started = System.nanoTime();
      ProbeRun run =
          worker.run(
              new WorkerRequest(
                  id,
                  probe.settings(),
                  config.backend(),
                  config.hostPaths(),
                  config.topologyCommand()),
              probe.deadline(),
              store.knownTargets(id));
      budget.spent(Duration.ofNanos(System.nanoTime() - started));
      store.record(run);
      logRun(run);
    } finally {
      lane.unlock();
    }
  }

  public void stop() {
    worker.stop();
  }

  private static void logRun(ProbeRun run) {
    if (!run.skippedBecause().isEmpty()) {
      log.info("probe={} skipped: {}", run.probe(), run.skippedBecause());
      return;
    }
    for (TargetResult t : run.targets()) {
      String figure = t.measurements().isEmpty() ? "" : " " + t.measurements().get(0).summary();
      String error = t.error().isEmpty() ? "" : " error=\"" + t.error() + "\"";
      log.info(
          String.format(
              Locale.ROOT,
              "probe=%s target=%s result=%s duration=%.2fs%s%s",
              run.probe(),
              t.target(),
              t.outcome().label(),
              t.durationSeconds(),
              figure,
              error));
    }
  }
}
