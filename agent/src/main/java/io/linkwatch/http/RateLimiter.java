package io.linkwatch.http;

import io.linkwatch.config.WebConfig.RateLimit;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The web config's {@code rate_limit} over all requests, a token bucket as Go's {@code
 * rate.Limiter} that the exporter-toolkit uses: it holds up to {@code burst} tokens, starts full,
 * gains one every {@code interval}, and each request takes one; a request that finds none is
 * answered {@code 429 Too Many Requests}. With a burst of 0 every request is refused, as in Go. A
 * reloaded web config with other settings starts a new, full bucket.
 */
final class RateLimiter {
  private final Supplier<Optional<RateLimit>> settings;
  private final LongSupplier nanoTime;
  private Bucket bucket;

  RateLimiter(Supplier<Optional<RateLimit>> settings, LongSupplier nanoTime) {
    this.settings = settings;
    this.nanoTime = nanoTime;
  }

  private static final class Bucket {
    final RateLimit limit;
    double tokens;
    long last;

    Bucket(RateLimit limit, long now) {
      this.limit = limit;
      this.tokens = limit.burst();
      this.last = now;
    }
  }

  /** Whether a request may be served now; takes a token when it may. */
  synchronized boolean allow() {
    Optional<RateLimit> limit = settings.get();
    if (limit.isEmpty()) {
      bucket = null;
      return true;
    }
    long now = nanoTime.getAsLong();
    if (bucket == null || !bucket.limit.equals(limit.get())) {
      bucket = new Bucket(limit.get(), now);
    }
    Bucket b = bucket;
    double gained = (double) (now - b.last) / b.limit.interval().toNanos();
    b.tokens = Math.min(Math.max(b.limit.burst(), 0), b.tokens + gained);
    b.last = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return true;
    }
    return false;
  }

  void handle(RoutingContext ctx) {
    if (allow()) {
      ctx.next();
      return;
    }
    ctx.response()
        .setStatusCode(429)
        .putHeader("Content-Type", "text/plain; charset=utf-8")
        .end("Too Many Requests\n");
  }
}
