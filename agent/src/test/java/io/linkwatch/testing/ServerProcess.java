package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server binary of the Prometheus family (Prometheus, Alertmanager, VictoriaMetrics and its
 * vmagent and vmalert) as a child process on a loopback port: started with its output in a log
 * file, ready once its readiness path answers 200, stopped with SIGTERM (then SIGKILL) on close.
 */
final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final int port;
  private final HttpClient http = HttpClient.newHttpClient();

  private ServerProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Runs {@code command}, which must listen on {@code port}; waits until it is ready. */
  static ServerProcess start(List<String> command, int port, Path log, Duration readyWithin)
      throws Exception {
    return start(command, port, log, readyWithin, "/-/ready");
  }

  /** As above, ready once {@code readyPath} answers 200 (VictoriaMetrics' binaries: /health). */
  static ServerProcess start(
      List<String> command, int port, Path log, Duration readyWithin, String readyPath)
      throws Exception {
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    ServerProcess server = new ServerProcess(p, port);
    long end = System.nanoTime() + readyWithin.toNanos();
    while (System.nanoTime() < end && p.isAlive()) {
      try {
        if (server.get(readyPath).statusCode() == 200) {
          return server;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    p.destroyForcibly();
    throw new AssertionError(command.get(0) + " did not become ready: " + Files.readString(log));
  }

  int port() {
    return port;
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The {@code data.result} array of an instant query of the Prometheus query API, which the server
   * must answer with 200 and {@code "status": "success"}.
   */
  JsonNode query(String promql) throws IOException, InterruptedException {
    return query(promql, "");
  }

  /** As above, with more query parameters ({@code &step=10s}). */
  JsonNode query(String promql, String parameters) throws IOException, InterruptedException {
    HttpResponse<String> response =
        get(
            "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                + parameters);
    assertThat(response.statusCode()).as(promql + ": " + response.body()).isEqualTo(200);
    JsonNode body = JsonTrees.MAPPER.readTree(response.body());
    assertThat(body.get("status").asText()).as(promql).isEqualTo("success");
    return body.get("data").get("result");
  }

  /** {@code data.activeTargets} of {@code /api/v1/targets}. */
  JsonNode activeTargets() throws IOException, InterruptedException {
    return JsonTrees.MAPPER
        .readTree(get("/api/v1/targets").body())
        .get("data")
        .get("activeTargets");
  }

  /** {@code data.alerts} of {@code /api/v1/alerts}: every alert held, pending or firing. */
  JsonNode alerts() throws IOException, InterruptedException {
    return JsonTrees.MAPPER.readTree(get("/api/v1/alerts").body()).get("data").get("alerts");
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        // Gone before the test's directory is deleted: a server still dying can write into it.
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
