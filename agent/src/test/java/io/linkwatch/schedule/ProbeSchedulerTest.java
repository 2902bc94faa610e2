package io.linkwatch.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.registry.ProbeKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The scheduler's plan and its Quartz wiring, with the clock and the jitter's source given. */
class ProbeSchedulerTest {
  static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

  static AgentConfig config(String probes) {
    return ConfigLoader.parse("t.yaml", "backend: sim\nprobes:\n" + probes);
  }

  static List<ProbeConfig> probes(AgentConfig config) {
    return List.copyOf(config.probes().values());
  }

  @Test
  void firstRunsAreStaggeredHalfASecondApartWithJitterThatKeepsTheirOrder() {
    List<ProbeConfig> probes = probes(config("  topology: {enabled: false}\n"));
    Map<ProbeKind, Instant> plan =
        FirstRuns.plan(probes, NOW, Duration.ofSeconds(3), new Random(42));

    assertThat(plan).doesNotContainKey(ProbeKind.TOPOLOGY).hasSize(ProbeKind.values().length - 1);
    int i = 0;
    for (ProbeConfig p : probes) {
      if (!p.enabled()) {
        continue;
      }
      Instant slot = NOW.plusSeconds(3).plus(FirstRuns.STAGGER.multipliedBy(i++));
      assertThat(plan.get(p.kind())).isBetween(slot, slot.plusMillis(FirstRuns.JITTER_MILLIS - 1));
    }
    // In config order whatever the draw: p2p's result is the first an operator sees.
    for (long seed = 0; seed < 200; seed++) {
      List<Instant> times =
          List.copyOf(FirstRuns.plan(probes, NOW, Duration.ZERO, new Random(seed)).values());
      for (int k = 1; k < times.size(); k++) {
        assertThat(times.get(k)).as("seed %d, probe %d", seed, k).isAfter(times.get(k - 1));
      }
    }
    // The same source gives the same plan; another source other jitter.
    assertThat(FirstRuns.plan(probes, NOW, Duration.ofSeconds(3), new Random(42))).isEqualTo(plan);
    assertThat(FirstRuns.plan(probes, NOW, Duration.ofSeconds(3), new Random(43)))
        .isNotEqualTo(plan);
  }

  @Test
  void eachEnabledProbeRunsAtItsFirstTimeAndIsToldItsNextFiring() throws Exception {
    AgentConfig config =
        config(
            """
              p2p: {every: 1h, deadline: 1m}
              device_memory: {every: 30m, deadline: 1m}
              p2p_bidirectional: {enabled: false}
              allreduce: {enabled: false}
              allgather: {enabled: false}
              host_transfer: {enabled: false}
              topology: {enabled: false}
            """);
    Map<ProbeKind, Instant> nextRuns = new ConcurrentHashMap<>();
    CountDownLatch ran = new CountDownLatch(2);
    ProbeRuns recorder =
        (probe, nextRun) -> {
          nextRuns.put(probe.kind(), nextRun);
          ran.countDown();
        };
    Instant start = Instant.now();
    ProbeScheduler scheduler =
        new ProbeScheduler(
            recorder,
            probes(config),
            Duration.ZERO,
            Clock.fixed(start, ZoneOffset.UTC),
            new Random(1));
    try {
      scheduler.start();
      assertThat(ran.await(10, TimeUnit.SECONDS)).as("both probes ran").isTrue();
      assertThat(nextRuns).containsOnlyKeys(ProbeKind.P2P, ProbeKind.DEVICE_MEMORY);
      // Told the firing after the first: one interval after it (first run within 1.5 s of start).
      assertThat(Duration.between(start, nextRuns.get(ProbeKind.P2P)))
          .isBetween(Duration.ofHours(1), Duration.ofHours(1).plusMillis(1500));
      assertThat(Duration.between(start, nextRuns.get(ProbeKind.DEVICE_MEMORY)))
          .isBetween(Duration.ofMinutes(30), Duration.ofMinutes(30).plusMillis(1500));
      assertThat(scheduler.nextFireTimes()).containsOnlyKeys("p2p", "device_memory");
    } finally {
      scheduler.close();
    }
  }
}
