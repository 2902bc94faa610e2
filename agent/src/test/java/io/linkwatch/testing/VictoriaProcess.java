package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One of VictoriaMetrics' binaries from Debian's {@code victoria-metrics} package (the store, a
 * vmagent scrape shard, vmalert) as a child process on 127.0.0.1, with the calls a test makes of
 * each: queries of the store, a shard's targets, the rules' alerts.
 */
public final class VictoriaProcess implements AutoCloseable, QueryApi {
  private final ServerProcess server;
  private final List<String> command;

  private VictoriaProcess(ServerProcess server, List<String> command) {
    this.server = server;
    this.command = command;
  }

  /** Runs {@code command} (which listens on {@code port}) until {@code /health} answers. */
  public static VictoriaProcess start(List<String> command, int port, Path log) throws Exception {
    assertThat(Path.of(command.get(0)))
        .as(command.get(0) + " is installed (apt-get install victoria-metrics)")
        .exists();
    return new VictoriaProcess(
        ServerProcess.start(command, port, log, Duration.ofSeconds(60), "/health"), command);
  }

  /** The command line it runs, to start it again after {@link #close}. */
  public List<String> command() {
    return command;
  }

  public int port() {
    return server.port();
  }

  public String url() {
    return "http://127.0.0.1:" + server.port();
  }

  /** The {@code data.result} array of an instant query (the store's Prometheus query API). */
  @Override
  public JsonNode query(String promql) throws Exception {
    return server.query(promql);
  }

  /**
   * As {@link #query(String)}, looking back {@code step} for each series' last sample (5 minutes
   * when not given, as Prometheus' lookback).
   */
  public JsonNode query(String promql, String step) throws Exception {
    return server.query(promql, "&step=" + step);
  }

  /** A vmagent's active targets ({@code data.activeTargets} of {@code /api/v1/targets}). */
  public JsonNode targets() throws Exception {
    return server.activeTargets();
  }

  /** Every alert vmalert holds now, pending or firing. */
  @Override
  public JsonNode alerts() throws Exception {
    return server.alerts();
  }

  @Override
  public void close() {
    server.close();
  }
}
