package io.linkwatch.passive;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Each link's error rate over the last few minutes, from its unwrapped counters: the errors that
 * the alert rule {@code LinkwatchLinkErrorRate} counts (CRC, retry/replay, recovery), summed over
 * the kinds, per second between the oldest reading of the window and the newest. The verdict warns
 * above {@link #THRESHOLD_PER_SECOND}, the rule's threshold; a test holds the rule to these two
 * constants, so the alert and {@code linkwatch status} cannot drift apart.
 *
 * <p>E.g. readings {@code crc=100} at 0 s and {@code crc=2600} at 50 s give 50.0 errors/s.
 */
public final class LinkErrorRates {
  /** Errors per second, summed over the counted kinds, above which a link is judged noisy. */
  public static final double THRESHOLD_PER_SECOND = 1.0;

  /** The threshold as the rule writes it: {@code 1}. */
  public static String threshold() {
    double t = THRESHOLD_PER_SECOND;
    return t == Math.rint(t) ? String.valueOf((long) t) : String.valueOf(t);
  }

  /** The kinds counted, as the rule's {@code kind=~} matcher writes them. */
  public static final String COUNTED_KINDS = "crc.*|retry|recovery";

  private static final Pattern COUNTED = Pattern.compile(COUNTED_KINDS);

  /** The window the rate is taken over: the rule's {@code [5m]}. */
  static final long WINDOW_MILLIS = 5 * 60_000;

  /** A rate over less than this is no rate yet: one burst between two reads is not a trend. */
  static final long MIN_SPAN_MILLIS = 10_000;

  /** Per link, its readings in the window: {@code [millis, counted errors]}, oldest first. */
  private final Map<List<Object>, Deque<long[]>> readings = new HashMap<>();

  /**
   * Adds a reading of {@code link}'s (unwrapped) counters at {@code nowMillis}; returns its rate
   * over the window, or null while the window spans less than {@link #MIN_SPAN_MILLIS} or the link
   * counts none of the kinds.
   */
  synchronized Double next(List<Object> link, long nowMillis, Map<String, Long> errors) {
    Long counted = counted(errors);
    if (counted == null) {
      readings.remove(link);
      return null;
    }
    Deque<long[]> window = readings.computeIfAbsent(link, k -> new ArrayDeque<>());
    if (!window.isEmpty() && (window.peekLast()[1] > counted || window.peekLast()[0] > nowMillis)) {
      // A counter that went back (a reset the unwrapper could not see) starts the window again.
      window.clear();
    }
    window.addLast(new long[] {nowMillis, counted});
    while (window.size() > 2 && window.peekFirst()[0] < nowMillis - WINDOW_MILLIS) {
      window.removeFirst();
    }
    long[] oldest = window.peekFirst();
    long span = nowMillis - oldest[0];
    if (span < MIN_SPAN_MILLIS) {
      return null;
    }
    return (counted - oldest[1]) * 1000.0 / span;
  }

  /** The sum of the counted kinds, or null when the link has none of them. */
  static Long counted(Map<String, Long> errors) {
    Long sum = null;
    for (Map.Entry<String, Long> e : errors.entrySet()) {
      if (e.getValue() != null && COUNTED.matcher(e.getKey()).matches()) {
        sum = (sum == null ? 0 : sum) + e.getValue();
      }
    }
    return sum;
  }
}
