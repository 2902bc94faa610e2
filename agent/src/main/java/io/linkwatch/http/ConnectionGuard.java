package io.linkwatch.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps slow and surplus clients from holding connections: a connection that has not sent a
 * complete request head within {@code requestTimeout} of opening (or of its last response, when
 * kept alive) is closed, whatever trickle of bytes it sends; connections beyond {@code
 * maxConnections} are closed at once.
 */
final class ConnectionGuard {
  private static final Logger log = LoggerFactory.getLogger(ConnectionGuard.class);

  private final Vertx vertx;
  private final long timeoutMillis;
  private final int maxConnections;

  /** Open connections and the timer that closes each unless a request head arrives. */
  private final Map<HttpConnection, Long> timers = new ConcurrentHashMap<>();

  ConnectionGuard(Vertx vertx, Duration requestTimeout, int maxConnections) {
    this.vertx = vertx;
    this.timeoutMillis = requestTimeout.toMillis();
    this.maxConnections = maxConnections;
  }

  void opened(HttpConnection conn) {
    if (timers.size() >= maxConnections) {
      log.warn(
          "http: {} open connections, the most allowed (web.max_connections): closing one from {}",
          timers.size(),
          conn.remoteAddress());
      conn.close();
      return;
    }
    timers.put(conn, arm(conn));
    conn.closeHandler(v -> cancel(timers.remove(conn)));
  }

  /** A request head arrived: no deadline until its response has been sent. */
  void requested(HttpServerRequest request) {
    HttpConnection conn = request.connection();
    Long timer = timers.replace(conn, -1L);
    cancel(timer);
    request
        .response()
        .endHandler(
            v -> {
              // Kept alive: the next request head has the same time to arrive.
              if (Long.valueOf(-1L).equals(timers.get(conn))) {
                timers.put(conn, arm(conn));
              }
            });
  }

  private long arm(HttpConnection conn) {
    return vertx.setTimer(
        timeoutMillis,
        id -> {
          if (timers.remove(conn, id)) {
            conn.close();
          }
        });
  }

  private void cancel(Long timer) {
    if (timer != null && timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
