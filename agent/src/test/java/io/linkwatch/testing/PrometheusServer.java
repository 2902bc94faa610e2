package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Prometheus server (Debian's package) on 127.0.0.1, with a test-owned data directory,
 * scraping the agent and evaluating the rule files it is given.
 */
public final class PrometheusServer implements AutoCloseable, QueryApi {
  private final ServerProcess server;

  private PrometheusServer(ServerProcess server) {
    this.server = server;
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
    return launch(
        dir,
        globalSection(interval, ruleFiles)
            + "scrape_configs:\n  - job_name: linkwatch\n"
            + scrapeOptions
            + "    static_configs:\n      - targets: ['127.0.0.1:"
            + agentPort
            + "']\n");
  }

  /**
   * A Prometheus that finds its targets in the file_sd file {@code targets} (job {@code linkwatch},
   * so the labels each group sets, such as {@code cluster} and {@code rack}, are on every series
   * and alert) and sends its alerts to the Alertmanager on {@code alertmanagerPort}.
   */
  public static PrometheusServer startFileSd(
      Path dir, Path targets, String interval, int alertmanagerPort, Path... ruleFiles)
      throws Exception {
    return launch(
        dir,
        globalSection(interval, ruleFiles)
            + "alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: ['127.0.0.1:"
            + alertmanagerPort
            + "']\n"
            + "scrape_configs:\n  - job_name: linkwatch\n    file_sd_configs:\n      - files: ['"
            + targets.toAbsolutePath()
            + "']\n        refresh_interval: "
            + interval
            + "\n");
  }

  /**
   * A Prometheus that finds its targets at the HTTP service-discovery URL {@code sdUrl} (job {@code
   * linkwatch}), as a fleet that lists its agents from one agent's {@code /api/v1/peers} does.
   */
  public static PrometheusServer startHttpSd(
      Path dir, String sdUrl, String interval, Path... ruleFiles) throws Exception {
    return launch(
        dir,
        globalSection(interval, ruleFiles)
            + "scrape_configs:\n  - job_name: linkwatch\n    scrape_timeout: "
            + interval
            + "\n    http_sd_configs:\n      - url: '"
            + sdUrl
            + "'\n        refresh_interval: "
            + interval
            + "\n");
  }

  /** Scrape and evaluation every {@code interval}, and the rule files. */
  private static String globalSection(String interval, Path... ruleFiles) {
    StringBuilder rules =
        new StringBuilder(
            "global:\n  scrape_interval: "
                + interval
                + "\n  evaluation_interval: "
                + interval
                + "\n"
                + (ruleFiles.length > 0 ? "rule_files:\n" : ""));
    for (Path r : ruleFiles) {
      rules.append("  - ").append(r.toAbsolutePath()).append('\n');
    }
    return rules.toString();
  }

  private static PrometheusServer launch(Path dir, String configText) throws Exception {
    Path binary = Path.of("/usr/bin/prometheus");
    assertThat(binary).as("prometheus is installed (apt-get install prometheus)").exists();
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, configText);
    int port = freePort();
    Path data = Files.createDirectories(dir.resolve("prometheus-data"));
    return new PrometheusServer(
        ServerProcess.start(
            List.of(
                binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + data,
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"),
            port,
            dir.resolve("prometheus.log"),
            Duration.ofSeconds(60)));
  }

  /** The {@code data.result} array of an instant query. */
  @Override
  public JsonNode query(String promql) throws Exception {
    return server.query(promql);
  }

  /** The scrape targets' state ({@code data.activeTargets} of {@code /api/v1/targets}). */
  public JsonNode targets() throws Exception {
    return server.activeTargets();
  }

  /** Every alert Prometheus holds now, pending or firing. */
  @Override
  public JsonNode alerts() throws Exception {
    return server.alerts();
  }

  @Override
  public void close() {
    server.close();
  }
}
