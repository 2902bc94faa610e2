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
 * @param historyStep the time step of the status page's charts ({@code history_step}): each series
 *     keeps its last figure per step for 288 steps (24 hours at the default 5 minutes)
 */
public record WebSettings(
    Optional<Path> configFile,
    WebConfig config,
    Duration requestTimeout,
    int maxConnections,
    Duration historyStep) {
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_CONNECTIONS = 256;
  public static final Duration DEFAULT_HISTORY_STEP = Duration.ofMinutes(5);

  /** With the web config read from {@code file}. */
  public WebSettings withConfigFile(Path file) {
    return new WebSettings(
        Optional.of(file), WebConfigLoader.load(file), requestTimeout, maxConnections, historyStep);
  }

  public boolean tls() {
    return config.tls().isPresent();
  }
}
