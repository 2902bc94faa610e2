package io.linkwatch.http;

import io.linkwatch.config.ConfigException;
import io.linkwatch.config.WebConfig;
import io.linkwatch.config.WebConfigLoader;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the web config file when it or a certificate, key or CA file it names changes (checked
 * every few seconds), so a rotated certificate, a new password or a new rate limit needs no
 * restart. A file that no longer validates is reported once and the last good config stays in
 * force. Switching between HTTP and HTTPS, turning HTTP/2 on or off and changing the curves need a
 * restart, and say so.
 */
final class WebConfigWatcher {
  private static final Logger log = LoggerFactory.getLogger(WebConfigWatcher.class);
  static final long PERIOD_MILLIS = 2000;

  private final Path file;
  private final AtomicReference<WebConfig> current;
  private volatile List<String> stamp;
  private volatile List<String> lastFailedStamp = List.of();

  WebConfigWatcher(Path file, WebConfig initial) {
    this.file = file;
    this.current = new AtomicReference<>(initial);
    this.stamp = stamp(file, initial);
  }

  WebConfig current() {
    return current.get();
  }

  void start(Vertx vertx, HttpServer server) {
    vertx.setPeriodic(
        PERIOD_MILLIS,
        id ->
            vertx
                .executeBlocking(this::reloadIfChanged)
                .onSuccess(
                    changed -> {
                      WebConfig next = changed;
                      if (next != null && next.tls().isPresent()) {
                        io.vertx.core.net.ServerSSLOptions ssl;
                        try {
                          ssl = ServerTls.sslOptions(next.tls().get(), next.http2());
                        } catch (RuntimeException e) {
                          // A file changed again between the check and this read.
                          log.warn(
                              "web config {}: new TLS files not taken: {}", file, e.getMessage());
                          return;
                        }
                        server
                            .updateSSLOptions(ssl, true)
                            .onFailure(
                                e ->
                                    log.warn(
                                        "web config {}: new TLS files not taken: {}",
                                        file,
                                        e.getMessage()));
                      }
                    }));
  }

  /** The new config when the files changed and it validates, else null. */
  private WebConfig reloadIfChanged() {
    WebConfig before = current.get();
    List<String> now = stamp(file, before);
    if (now.equals(stamp) || now.equals(lastFailedStamp)) {
      return null;
    }
    WebConfig next;
    try {
      next = WebConfigLoader.load(file);
    } catch (ConfigException e) {
      lastFailedStamp = now;
      log.warn("web config changed but is not valid; the last good one stays:\n{}", e.getMessage());
      return null;
    }
    if (next.tls().isPresent() != before.tls().isPresent()) {
      lastFailedStamp = now;
      log.warn(
          "web config {}: {} TLS needs a restart of the agent; the last good config stays",
          file,
          next.tls().isPresent() ? "turning on" : "turning off");
      return null;
    }
    String restart = needsRestart(before, next);
    if (restart != null) {
      lastFailedStamp = now;
      log.warn(
          "web config {}: changing {} needs a restart of the agent; the last good config stays",
          file,
          restart);
      return null;
    }
    stamp = stamp(file, next);
    current.set(next);
    log.info("web config {} reloaded", file);
    return next;
  }

  /**
   * What changed that a running server cannot take, or null: HTTP/2 is set when the server starts
   * (the exporter-toolkit cannot change it on the fly either), and the JDK reads the key exchange
   * groups once.
   */
  private static String needsRestart(WebConfig before, WebConfig next) {
    if (before.http2() != next.http2() && next.tls().isPresent()) {
      return "http_server_config.http2";
    }
    if (before.tls().isPresent()
        && next.tls().isPresent()
        && !before.tls().get().namedGroups().equals(next.tls().get().namedGroups())) {
      return "tls_server_config.curve_preferences";
    }
    return null;
  }

  /** Size and modification time of the file and every file it names. */
  private static List<String> stamp(Path file, WebConfig config) {
    List<Path> files = new ArrayList<>(List.of(file));
    config.tls().ifPresent(t -> files.addAll(t.files()));
    List<String> out = new ArrayList<>();
    for (Path f : files) {
      try {
        out.add(f + " " + Files.size(f) + " " + Files.getLastModifiedTime(f).toMillis());
      } catch (IOException e) {
        out.add(f + " missing");
      }
    }
    return out;
  }
}
