package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exposition is rendered once and served again until the store records something or a second
 * passes; what is served then is what the registry says now.
 */
class ExpositionCacheTest {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final AtomicLong version = new AtomicLong();
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AtomicLong renders = new AtomicLong();
  private Gauge gauge;
  private ExpositionCache cache;

  @BeforeEach
  void setUp() {
    gauge = Gauge.builder().name("linkwatch_test_value").help("A value.").register(registry);
    // Counts renders: the registry calls every collector at each scrape.
    registry.register(
        () ->
            GaugeSnapshot.builder()
                .name("linkwatch_test_renders")
                .dataPoint(
                    GaugeDataPointSnapshot.builder().value(renders.incrementAndGet()).build())
                .build());
    cache =
        new ExpositionCache(
            registry, ExpositionFormats.init(), version::get, Duration.ofSeconds(1), now::get);
  }

  private String text() throws Exception {
    return cache.get(null).content().toString(StandardCharsets.UTF_8);
  }

  @Test
  void aSecondScrapeWithinTheMaxAgeIsServedWithoutRendering() throws Exception {
    gauge.set(1);
    ExpositionCache.Body first = cache.get(null);
    now.addAndGet(Duration.ofMillis(900).toNanos());
    ExpositionCache.Body second = cache.get(null);

    assertThat(second).isSameAs(first);
    assertThat(renders.get()).isEqualTo(1);
    assertThat(first.contentType()).startsWith("text/plain");
  }

  @Test
  void aNewResultIsServedAtOnce() throws Exception {
    gauge.set(1);
    assertThat(text()).contains("linkwatch_test_value 1.0");
    gauge.set(2);
    version.incrementAndGet(); // the store recorded a run
    assertThat(text()).contains("linkwatch_test_value 2.0");
  }

  @Test
  void whatChangesOnItsOwnIsAtMostTheMaxAgeOld() throws Exception {
    gauge.set(1);
    text();
    gauge.set(3); // e.g. the process's RSS, which no store change announces
    assertThat(text()).contains("linkwatch_test_value 1.0");
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(text()).contains("linkwatch_test_value 3.0");
    assertThat(renders.get()).isEqualTo(2);
  }

  @Test
  void eachFormatIsRenderedForItself() throws Exception {
    ExpositionCache.Body plain = cache.get(null);
    ExpositionCache.Body open = cache.get("application/openmetrics-text; version=1.0.0");

    assertThat(open.contentType()).startsWith("application/openmetrics-text");
    assertThat(open.content().toString(StandardCharsets.UTF_8)).endsWith("# EOF\n");
    assertThat(cache.get(null)).isSameAs(plain);
  }
}
