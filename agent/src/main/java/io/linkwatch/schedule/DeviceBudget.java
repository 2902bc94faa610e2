package io.linkwatch.schedule;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Keeps probing a small share of device time: it remembers how long runs kept the device busy over
 * the last hour and refuses a run once that share is above the budget (e.g. 0.05 = 3 minutes an
 * hour). A refused run is counted as {@code skipped_budget}.
 */
public final class DeviceBudget {
  private static final Duration WINDOW = Duration.ofHours(1);

  private record Busy(long endMillis, long millis) {}

  private final Clock clock;
  private final double share;
  private final Deque<Busy> runs = new ArrayDeque<>();

  public DeviceBudget(Clock clock, double share) {
    this.clock = clock;
    this.share = share;
  }

  public synchronized boolean allows() {
    return busyMillis() <= share * WINDOW.toMillis();
  }

  public synchronized void spent(Duration busy) {
    runs.addLast(new Busy(clock.millis(), busy.toMillis()));
  }

  private long busyMillis() {
    long cutoff = clock.millis() - WINDOW.toMillis();
    while (!runs.isEmpty() && runs.peekFirst().endMillis() < cutoff) {
      runs.removeFirst();
    }
    return runs.stream().mapToLong(Busy::millis).sum();
  }
}
