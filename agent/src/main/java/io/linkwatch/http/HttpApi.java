package io.linkwatch.http;

import io.linkwatch.config.WebConfig;
import io.linkwatch.config.WebSettings;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.StatusDocuments;
import io.linkwatch.status.StatusCodec;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent's HTTP side (Vert.x): {@code /metrics}, {@code /healthz}, {@code /api/v1/status},
 * {@code /api/v1/history} (the charted figures of the last 24 hours, {@link HistoryJson}) and a
 * status page ({@link StatusPage}). Handlers only read the last results, which are in memory, so
 * none of them blocks the event loop or starts device work. Unknown paths answer 404, known paths
 * with another method 405 (Vert.x Web's router does both). Responses are gzipped when the client
 * asks. The web config ({@link WebSettings}) adds TLS (with HTTP/2), a rate limit, basic auth and
 * headers on every path, and slow or surplus connections are closed ({@link ConnectionGuard}).
 */
public final class HttpApi implements AutoCloseable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HttpApi.class);

  /**
   * How old a served exposition may be when no probe result changed: the agent's own process and
   * JVM figures move on their own, a second is nothing next to any scrape interval.
   */
  static final Duration METRICS_MAX_AGE = Duration.ofSeconds(1);

  private final Vertx vertx;
  private final HttpServer server;

  private HttpApi(Vertx vertx, HttpServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  /** Starts listening; throws when the address cannot be bound. */
  public static HttpApi start(
      String host,
      int port,
      PrometheusRegistry registry,
      ResultStore store,
      PassiveStore passive,
      Supplier<Map<String, Instant>> nextFireTimes,
      WebSettings web)
      throws Exception {
    return start(
        host,
        port,
        registry,
        store,
        passive,
        nextFireTimes,
        web,
        io.linkwatch.verdict.Expectations.of(io.linkwatch.config.ExpectedFigureTable.SHIPPED));
  }

  /**
   * As above, with the expectations ({@code AgentConfig.expectations()}) whose figures colour the
   * status page's cells.
   */
  public static HttpApi start(
      String host,
      int port,
      PrometheusRegistry registry,
      ResultStore store,
      PassiveStore passive,
      Supplier<Map<String, Instant>> nextFireTimes,
      WebSettings web,
      io.linkwatch.verdict.Expectations expected)
      throws Exception {
    return start(host, port, registry, store, passive, nextFireTimes, web, expected, null, null);
  }

  /**
   * As above, with the peers' API ({@code /api/v1/peers}, {@code /api/v1/identity}) answering from
   * {@code peers} (null, or a supplier of null: not configured) and naming {@code version}.
   */
  public static HttpApi start(
      String host,
      int port,
      PrometheusRegistry registry,
      ResultStore store,
      PassiveStore passive,
      Supplier<Map<String, Instant>> nextFireTimes,
      WebSettings web,
      io.linkwatch.verdict.Expectations expected,
      Supplier<io.linkwatch.peer.PeerSnapshot> peers,
      String version)
      throws Exception {
    return start(
        host, port, registry, store, passive, nextFireTimes, web, expected, peers, version, null);
  }

  /**
   * As above, lending this host's devices to peers' two-host runs through {@code leases} (null: the
   * lease paths are not served).
   */
  public static HttpApi start(
      String host,
      int port,
      PrometheusRegistry registry,
      ResultStore store,
      PassiveStore passive,
      Supplier<Map<String, Instant>> nextFireTimes,
      WebSettings web,
      io.linkwatch.verdict.Expectations expected,
      Supplier<io.linkwatch.peer.PeerSnapshot> peers,
      String version,
      io.linkwatch.peer.collective.LeaseDesk leases)
      throws Exception {
    // One event loop serves every request (a cached body is microseconds of work); the blocking
    // pool runs the bcrypt checks, the web config reloads and the status renderings, none of them
    // busy. A blocked
    // event loop is still reported, within 10 s instead of 1 s: the check wakes a thread each time.
    Vertx vertx =
        Vertx.vertx(
            new VertxOptions()
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(2)
                .setInternalBlockingPoolSize(2)
                .setBlockedThreadCheckInterval(10_000));
    ExpositionFormats formats = ExpositionFormats.init();
    WebConfigWatcher watcher =
        web.configFile().map(f -> new WebConfigWatcher(f, web.config())).orElse(null);
    Supplier<WebConfig> config = watcher == null ? web::config : watcher::current;
    Router router = Router.router(vertx);
    // Every path: the web config's headers, its rate limit, then basic auth when users are
    // configured.
    router
        .route()
        .handler(
            ctx -> {
              config.get().headers().forEach(ctx.response()::putHeader);
              ctx.next();
            });
    // The rate limit before the login, so a flood costs no bcrypt checks.
    RateLimiter limiter = new RateLimiter(() -> config.get().rateLimit(), System::nanoTime);
    router.route().handler(limiter::handle);
    if (leases != null) {
      PeerLeaseApi.bodies(router);
    }
    BasicAuth auth = new BasicAuth(() -> config.get().basicAuthUsers());
    router.route().handler(auth::handle);
    ExpositionCache exposition =
        new ExpositionCache(
            registry,
            formats,
            // Both only grow, so their sum changes whenever either does.
            () -> store.version() + (passive == null ? 0 : passive.version()),
            METRICS_MAX_AGE,
            System::nanoTime);
    router.get("/metrics").handler(ctx -> metrics(ctx, exposition));
    router
        .get("/healthz")
        .handler(ctx -> ctx.response().putHeader("Content-Type", "text/plain").end("ok\n"));
    // The status document, the page and the history are whole renderings of what the store holds
    // (the page for 8 GPUs is tens of KB, a day of every series tens of milliseconds to encode):
    // off the event loop that serves /metrics, so an open page does not delay a scrape. The page
    // fetches the history only when a run was recorded since its last fetch.
    router
        .get("/api/v1/status")
        .blockingHandler(ctx -> status(ctx, store, passive, nextFireTimes), false);
    router
        .get("/api/v1/history")
        .blockingHandler(
            ctx ->
                ctx.response()
                    .putHeader("Content-Type", "application/json")
                    .putHeader("Cache-Control", "no-store")
                    .end(HistoryJson.encode(store.history().view(System.currentTimeMillis()))),
            false);
    PeerApi.routes(router, peers, version);
    if (leases != null) {
      PeerLeaseApi.routes(router, leases);
    }
    HistoryReferences history = new HistoryReferences(store.history(), System::currentTimeMillis);
    StatusPage page = new StatusPage(expected);
    router
        .get("/")
        .blockingHandler(ctx -> page(ctx, page, history, store, passive, nextFireTimes), false);
    try {
      HttpServerOptions options =
          new HttpServerOptions()
              .setCompressionSupported(true)
              // HTTP/2 only over TLS (ALPN, http_server_config.http2), as the exporter-toolkit:
              // cleartext HTTP/2 upgrades only add surface.
              .setHttp2ClearTextEnabled(false)
              .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
              .setIdleTimeout((int) web.requestTimeout().toMillis());
      web.config().tls().ifPresent(tls -> ServerTls.enable(options, tls, web.config().http2()));
      ConnectionGuard guard =
          new ConnectionGuard(vertx, web.requestTimeout(), web.maxConnections());
      HttpServer server =
          vertx
              .createHttpServer(options)
              .connectionHandler(guard::opened)
              .requestHandler(
                  request -> {
                    guard.requested(request);
                    router.handle(request);
                  })
              .listen(port, host)
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      if (watcher != null) {
        watcher.start(vertx, server);
      }
      return new HttpApi(vertx, server);
    } catch (Exception e) {
      vertx.close();
      throw e;
    }
  }

  public int port() {
    return server.actualPort();
  }

  private static void metrics(RoutingContext ctx, ExpositionCache exposition) {
    ExpositionCache.Body body;
    try {
      body = exposition.get(ctx.request().getHeader("Accept"));
    } catch (IOException e) {
      ctx.fail(e);
      return;
    }
    ctx.response().putHeader("Content-Type", body.contentType()).end(body.content());
  }

  private static void status(
      RoutingContext ctx,
      ResultStore store,
      PassiveStore passive,
      Supplier<Map<String, Instant>> nextFireTimes) {
    String body = StatusCodec.encode(StatusDocuments.of(store, passive, nextFireTimes.get()));
    ctx.response().putHeader("Content-Type", "application/json").end(body);
  }

  /**
   * The status page, from the same document as {@code /api/v1/status}; {@code ?refresh=N} sets its
   * refresh period in seconds (1 to 3600).
   */
  private static void page(
      RoutingContext ctx,
      StatusPage page,
      HistoryReferences history,
      ResultStore store,
      PassiveStore passive,
      Supplier<Map<String, Instant>> nextFireTimes) {
    int refresh = StatusPage.REFRESH_SECONDS;
    String asked = ctx.request().getParam("refresh");
    if (asked != null && asked.matches("\\d{1,4}")) {
      refresh = Math.max(1, Math.min(3600, Integer.parseInt(asked)));
    }
    String html;
    try {
      html =
          page.render(
              StatusDocuments.of(store, passive, nextFireTimes.get()),
              history,
              Instant.now(),
              refresh);
    } catch (RuntimeException e) {
      // Vert.x answers 500 and says nothing of why: the agent's log does.
      log.warn("rendering the status page failed: {}", e.toString(), e);
      ctx.fail(e);
      return;
    }
    ctx.response()
        .putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(html);
  }

  @Override
  public void close() {
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("HTTP server did not close: " + e.getMessage(), e);
    }
  }
}
