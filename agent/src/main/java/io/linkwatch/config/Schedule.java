package io.linkwatch.config;

import java.text.ParseException;
import java.time.Duration;
import java.util.Date;
import java.util.Optional;
import org.quartz.CronExpression;

/**
 * When a probe runs: every fixed interval ({@code every: 5m}) or on a Quartz cron expression
 * ({@code cron: "0 0/5 * * * ?"}). {@link #nominalInterval()} is what the probe's {@code
 * interval_seconds} metric reports, so alert rules need no hard-coded periods.
 */
public record Schedule(Optional<Duration> every, Optional<String> cron) {
  public static Schedule every(Duration d) {
    return new Schedule(Optional.of(d), Optional.empty());
  }

  public static Schedule cron(String expression) {
    try {
      CronExpression.validateExpression(expression);
    } catch (ParseException e) {
      throw new IllegalArgumentException(
          "'" + expression + "' is not a cron expression: " + e.getMessage());
    }
    return new Schedule(Optional.empty(), Optional.of(expression));
  }

  /** The interval, or for cron the shortest gap among its next few firings. */
  public Duration nominalInterval() {
    if (every.isPresent()) {
      return every.get();
    }
    try {
      CronExpression c = new CronExpression(cron.orElseThrow());
      Date t = c.getNextValidTimeAfter(new Date());
      Duration shortest = null;
      for (int i = 0; i < 8 && t != null; i++) {
        Date n = c.getNextValidTimeAfter(t);
        if (n == null) {
          break;
        }
        Duration gap = Duration.ofMillis(n.getTime() - t.getTime());
        shortest = shortest == null || gap.compareTo(shortest) < 0 ? gap : shortest;
        t = n;
      }
      return shortest == null ? Duration.ofDays(365) : shortest;
    } catch (ParseException e) {
      throw new IllegalStateException(e);
    }
  }
}
