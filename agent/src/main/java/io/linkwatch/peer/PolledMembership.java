package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Members read from a source at start and every {@code refresh}. A read that fails keeps the last
 * list that succeeded (a source that restarts must not empty the fleet), is counted, and is logged
 * once per run of failures; the next success is logged with the members it found.
 */
abstract class PolledMembership implements Membership {
  private static final Logger log = LoggerFactory.getLogger(PolledMembership.class);

  private final ScheduledExecutorService timer;
  private final AtomicLong failures = new AtomicLong();
  private volatile List<Member> members = List.of();
  private volatile String lastError;

  PolledMembership(String threadName) {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
  }

  /** Reads the members now; throws with a short reason when the source does not answer. */
  abstract List<Member> fetch() throws Exception;

  /** The source as a log line names it (credentials left out). */
  abstract String shown();

  final void startReading(Duration refresh) {
    timer.scheduleWithFixedDelay(this::read, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One read, kept or counted. */
  final void read() {
    try {
      List<Member> read = fetch();
      if (lastError != null || !read.equals(members)) {
        log.info("peers from {}: {} members", shown(), read.size());
      }
      members = read;
      lastError = null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | StackOverflowError e) {
      // An Error escaping would end the periodic reads for good: a nested document is one.
      failures.incrementAndGet();
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      if (lastError == null) {
        log.warn(
            "peers from {}: {}; keeping the {} members read before", shown(), why, members.size());
      }
      lastError = why;
    }
  }

  @Override
  public final List<Member> current() {
    return members;
  }

  @Override
  public final String lastError() {
    return lastError;
  }

  @Override
  public final long failures() {
    return failures.get();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
