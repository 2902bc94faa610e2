package io.linkwatch.check;

import io.linkwatch.state.CheckRecord;
import io.linkwatch.state.JobRecord;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.ShadowRecord;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the checks' records beside the probe lock every few seconds into the agent's store, so that
 * a prolog's or epilog's verdict is on {@code /metrics} within seconds of the check; and the counts
 * of what the job-boundary kit would have done in shadow mode, and the jobs running (their prologs'
 * records), which a finding that appears names. A record is a few hundred bytes; reading two of
 * them is nothing beside a scrape.
 */
public final class CheckRecordPoller implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CheckRecordPoller.class);
  static final long EVERY_MILLIS = 5_000;

  private final Path lockFile;
  private final ResultStore store;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "check-records");
            t.setDaemon(true);
            return t;
          });

  public CheckRecordPoller(Path lockFile, ResultStore store) {
    this.lockFile = lockFile;
    this.store = store;
  }

  public void start() {
    thread.scheduleWithFixedDelay(this::poll, 0, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  void poll() {
    try {
      store.recordChecks(CheckRecord.read(lockFile, CheckLevel.ids()));
      store.recordShadow(ShadowRecord.read(lockFile));
      store.recordRunningJobs(JobRecord.running(lockFile));
    } catch (RuntimeException e) {
      log.debug("reading the checks' records: {}", e.toString());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
