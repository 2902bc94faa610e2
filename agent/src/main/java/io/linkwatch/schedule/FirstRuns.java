package io.linkwatch.schedule;

import io.linkwatch.config.ProbeConfig;
import io.linkwatch.registry.ProbeKind;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * When each enabled probe first runs after start: {@code firstDelay} after now, the probes half a
 * second apart in config order so they do not all queue for the lane at once, each with jitter so
 * that many hosts started together (a rack after a power cut) do not probe in step. The jitter
 * stays under the stagger, so the first runs keep the config order (the first probe's result is the
 * first on {@code /metrics}, at most half a second late). Later runs follow the probe's own
 * interval or cron from there.
 */
final class FirstRuns {
  static final Duration STAGGER = Duration.ofMillis(500);
  static final long JITTER_MILLIS = STAGGER.toMillis();

  private FirstRuns() {}

  static Map<ProbeKind, Instant> plan(
      List<ProbeConfig> probes, Instant now, Duration firstDelay, RandomGenerator random) {
    Map<ProbeKind, Instant> first = new LinkedHashMap<>();
    Instant at = now.plus(firstDelay);
    for (ProbeConfig probe : probes) {
      if (probe.enabled()) {
        first.put(probe.kind(), at.plusMillis(random.nextLong(0, JITTER_MILLIS)));
        at = at.plus(STAGGER);
      }
    }
    return first;
  }
}
