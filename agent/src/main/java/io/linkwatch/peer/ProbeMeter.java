package io.linkwatch.peer;

import java.time.Clock;

/**
 * Probes this host took part in over the last hour, sent or answered, in one-minute buckets: what
 * the budget ({@code peers.budget_per_hour}) is held to. Answers are counted and never refused (a
 * refused answer would read as loss on the peer's side); the probes this host starts outside the
 * schedule, its second passes, are started only while the hour has room.
 */
final class ProbeMeter {
  private static final int BUCKETS = 60;
  private final long[] counts = new long[BUCKETS];
  private final long[] minutes = new long[BUCKETS];
  private final int budget;
  private final Clock clock;

  ProbeMeter(int budget, Clock clock) {
    this.budget = budget;
    this.clock = clock;
    java.util.Arrays.fill(minutes, Long.MIN_VALUE);
  }

  synchronized void record() {
    long minute = Math.floorDiv(clock.millis(), 60_000L);
    int i = (int) Math.floorMod(minute, (long) BUCKETS);
    if (minutes[i] != minute) {
      minutes[i] = minute;
      counts[i] = 0;
    }
    counts[i]++;
  }

  /** Records one probe if the last hour has room for it; false, and nothing recorded, if not. */
  synchronized boolean tryTake() {
    if (lastHour() + 1 > budget) {
      return false;
    }
    record();
    return true;
  }

  synchronized long lastHour() {
    long now = Math.floorDiv(clock.millis(), 60_000L);
    long sum = 0;
    for (int i = 0; i < BUCKETS; i++) {
      if (minutes[i] > now - BUCKETS) {
        sum += counts[i];
      }
    }
    return sum;
  }
}
