package io.linkwatch.verdict;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Judges the agent's own status every few seconds and hands the verdict to its observers (the
 * {@link VerdictLog}, the {@link StandingFindings}). A judgement reads the last results in memory
 * (what one {@code /api/v1/status} request costs) and starts no device work; a change is logged
 * within {@link #EVERY_MILLIS} of the run that made it.
 */
public final class VerdictWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(VerdictWatch.class);
  static final long EVERY_MILLIS = 5_000;

  private final Supplier<Verdict> judge;
  private final LongSupplier version;
  private final Consumer<Verdict> observer;
  private long judgedVersion = Long.MIN_VALUE;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "verdict-log");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param version changes whenever what {@code judge} reads changes (the stores' versions)
   * @param observer takes each verdict judged on new results: the journal, the standing findings
   */
  public VerdictWatch(Supplier<Verdict> judge, LongSupplier version, Consumer<Verdict> observer) {
    this.judge = judge;
    this.version = version;
    this.observer = observer;
  }

  public void start() {
    thread.scheduleWithFixedDelay(
        this::judgeOnce, EVERY_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  void judgeOnce() {
    try {
      long now = version.getAsLong();
      if (now == judgedVersion) {
        return;
      }
      observer.accept(judge.get());
      judgedVersion = now;
    } catch (RuntimeException e) {
      // A document that cannot be judged now is judged again in a few seconds; a failing
      // judgement must not end the schedule.
      log.debug("cannot judge the agent's status: {}", e.toString());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
