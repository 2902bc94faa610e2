package io.linkwatch.http;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The {@code /metrics} body, rendered once per format and served to every scrape until the result
 * store records something or {@code maxAge} passes. Probe results change every few minutes while
 * scrapers (Prometheus replicas, dashboards, curl) may ask many times a second; rendering the whole
 * exposition for each of them is what a scrape used to cost. A new result is served at once (the
 * store's version changes); the agent's own process and JVM figures are at most {@code maxAge} old.
 */
final class ExpositionCache {
  /**
   * A rendered exposition. The same {@link Buffer} goes to every response: a response writes a
   * slice of it (own indices, shared bytes), so nothing is copied per scrape; nobody writes to it.
   */
  record Body(String contentType, Buffer content) {}

  private record Entry(long version, long renderedNanos, Body body) {}

  private final PrometheusRegistry registry;
  private final ExpositionFormats formats;
  private final LongSupplier storeVersion;
  private final long maxAgeNanos;
  private final LongSupplier nanoTime;
  private final Map<String, Entry> byContentType = new ConcurrentHashMap<>();

  /**
   * @param storeVersion changes whenever the registry's probe results change
   * @param nanoTime the clock ({@code System::nanoTime}; tests pass their own)
   */
  ExpositionCache(
      PrometheusRegistry registry,
      ExpositionFormats formats,
      LongSupplier storeVersion,
      Duration maxAge,
      LongSupplier nanoTime) {
    this.registry = registry;
    this.formats = formats;
    this.storeVersion = storeVersion;
    this.maxAgeNanos = maxAge.toNanos();
    this.nanoTime = nanoTime;
  }

  /** The body for a request's {@code Accept} header (null: the text format). */
  Body get(String accept) throws IOException {
    ExpositionFormatWriter writer = formats.findWriter(accept);
    String type = writer.getContentType();
    // Read before rendering: a result recorded meanwhile leaves this entry stale, not lost.
    long version = storeVersion.getAsLong();
    long now = nanoTime.getAsLong();
    Entry cached = byContentType.get(type);
    if (cached != null
        && cached.version() == version
        && now - cached.renderedNanos() < maxAgeNanos) {
      return cached.body();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(32 * 1024);
    writer.write(out, registry.scrape());
    Body body = new Body(type, Buffer.buffer(out.toByteArray()));
    byContentType.put(type, new Entry(version, now, body));
    return body;
  }
}
