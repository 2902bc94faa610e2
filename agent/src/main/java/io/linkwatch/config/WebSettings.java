package io.linkwatch.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the agent serves HTTP: the web config (TLS, HTTP/2, basic auth, headers, rate limit) and the
 * limits that keep slow or too many clients from holding connections ({@code web:} in the main
 * config).
 *
 * @param configFile the web config file, re-read when it or its certificates change; empty: plain
 *     HTTP, no auth
 * @param requestTimeout a connection that has not sent a complete request head within this is
 *     closed, as is one idle that long
 * @param maxConnections connections beyond this are closed at once
 */
public record WebSettings(
    Optional<Path> configFile, WebConfig config, Duration requestTimeout, int maxConnections) {
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_CONNECTIONS = 256;

  /** With the web config read from {@code file}. */
  public WebSettings withConfigFile(Path file) {
    return new WebSettings(
        Optional.of(file), WebConfigLoader.load(file), requestTimeout, maxConnections);
  }

  public boolean tls() {
    return config.tls().isPresent();
  }
}
