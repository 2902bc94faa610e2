package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.util.Json;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's package) on 127.0.0.1, with a test-owned data directory,
 * scraping the agent and evaluating the rule files it is given.
 */
public final class PrometheusServer implements AutoCloseable {
  private final Process process;
  private final int port;
  private final HttpClient http = HttpClient.newHttpClient();

  private PrometheusServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  public static PrometheusServer start(Path dir, int agentPort, String interval, Path... ruleFiles)
      throws Exception {
    return start(dir, agentPort, interval, "", ruleFiles);
  }

  /**
   * As {@link #start(Path, int, String, Path...)}, with {@code scrapeOptions} (YAML lines at the
   * scrape config's indentation, e.g. {@code " scheme: https\n"}) added to the job.
   */
  public static PrometheusServer start(
      Path dir, int agentPort, String interval, String scrapeOptions, Path... ruleFiles)
      throws Exception {
    Path binary = Path.of("/usr/bin/prometheus");
    assertThat(binary).as("prometheus is installed (apt-get install prometheus)").exists();
    StringBuilder rules = new StringBuilder();
    for (Path r : ruleFiles) {
      rules.append("  - ").append(r.toAbsolutePath()).append('\n');
    }
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        "global:\n  scrape_interval: "
            + interval
            + "\n  evaluation_interval: "
            + interval
            + "\n"
            + (ruleFiles.length > 0 ? "rule_files:\n" + rules : "")
            + "scrape_configs:\n  - job_name: linkwatch\n"
            + scrapeOptions
            + "    static_configs:\n      - targets: ['127.0.0.1:"
            + agentPort
            + "']\n");
    int port = freePort();
    Path data = Files.createDirectories(dir.resolve("prometheus-data"));
    Process p =
        new ProcessBuilder(
                binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + data,
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    PrometheusServer server = new PrometheusServer(p, port);
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < end) {
      try {
        if (server.get("/-/ready").statusCode() == 200) {
          return server;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    p.destroyForcibly();
    throw new AssertionError(
        "prometheus did not become ready: " + Files.readString(dir.resolve("prometheus.log")));
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The {@code data.result} array of an instant query. */
  public JsonNode query(String promql) throws Exception {
    JsonNode body =
        Json.MAPPER.readTree(
            get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).body());
    assertThat(body.get("status").asText()).isEqualTo("success");
    return body.get("data").get("result");
  }

  /** The scrape targets' state ({@code data.activeTargets} of {@code /api/v1/targets}). */
  public JsonNode targets() throws Exception {
    return Json.MAPPER.readTree(get("/api/v1/targets").body()).get("data").get("activeTargets");
  }

  /** Every alert Prometheus holds now, pending or firing. */
  public JsonNode alerts() throws Exception {
    return Json.MAPPER.readTree(get("/api/v1/alerts").body()).get("data").get("alerts");
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
