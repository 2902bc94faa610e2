package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Alertmanager (Debian's prometheus-alertmanager) on 127.0.0.1 running the shipped {@code
 * grafana/alertmanager/alertmanager.yml}, changed only where a test must: its webhook posts to the
 * test's {@link WebhookReceiver}, the email integration (no mail server here) is left out, and the
 * grouping waits are seconds instead of minutes. Routes, grouping labels, inhibition rules and
 * templates are the shipped ones.
 */
public final class AlertmanagerServer implements AutoCloseable {
  static final Path SHIPPED = Path.of("..", "grafana", "alertmanager", "alertmanager.yml");

  private final ServerProcess server;

  private AlertmanagerServer(ServerProcess server) {
    this.server = server;
  }

  /** The shipped configuration as a live test runs it (see the class comment). */
  public static String liveConfig(String webhookUrl, boolean inhibitions) throws IOException {
    String shipped = Files.readString(SHIPPED);
    String c =
        replaceOnce(
            shipped, "'http://alert-gateway.example.org:9095/linkwatch'", "'" + webhookUrl + "'");
    c = replaceOnce(c, "group_wait: 30s", "group_wait: 1s");
    c = replaceOnce(c, "group_interval: 5m", "group_interval: 2s");
    int email = c.indexOf("    email_configs:\n");
    assertThat(email).as("the shipped config has an email integration").isPositive();
    int after = c.indexOf("\n  - name:", email);
    c = c.substring(0, email) + (after < 0 ? "" : c.substring(after + 1));
    if (!inhibitions) {
      int from = c.indexOf("\ninhibit_rules:\n");
      int to = c.indexOf("\nreceivers:\n");
      assertThat(from).as("the shipped config has inhibition rules").isPositive();
      c = c.substring(0, from + 1) + c.substring(to + 1);
    }
    // Its templates by absolute path: the live file is written elsewhere.
    Path templates = SHIPPED.toAbsolutePath().normalize().getParent().resolve("linkwatch.tmpl");
    return replaceOnce(c, "  - 'linkwatch.tmpl'", "  - '" + templates + "'");
  }

  private static String replaceOnce(String text, String what, String with) {
    assertThat(text).as("the shipped alertmanager.yml contains " + what).contains(what);
    return text.replace(what, with);
  }

  public static AlertmanagerServer start(Path dir, String config) throws Exception {
    Path binary = Path.of("/usr/bin/prometheus-alertmanager");
    assertThat(binary)
        .as("alertmanager is installed (apt-get install prometheus-alertmanager)")
        .exists();
    Path file = dir.resolve("alertmanager.yml");
    Files.writeString(file, config);
    int port = PrometheusServer.freePort();
    return new AlertmanagerServer(
        ServerProcess.start(
            List.of(
                binary.toString(),
                "--config.file=" + file,
                "--storage.path=" + Files.createDirectories(dir.resolve("alertmanager-data")),
                "--web.listen-address=127.0.0.1:" + port,
                // a single instance: no gossip port
                "--cluster.listen-address=",
                "--log.level=warn"),
            port,
            dir.resolve("alertmanager.log"),
            Duration.ofSeconds(30)));
  }

  public int port() {
    return server.port();
  }

  /** Posts alerts as Prometheus does ({@code POST /api/v2/alerts}, a JSON array). */
  public void post(String alertsJson) throws Exception {
    HttpResponse<String> r =
        server.send(
            HttpRequest.newBuilder(server.uri("/api/v2/alerts"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(alertsJson)));
    assertThat(r.statusCode()).as("POST /api/v2/alerts: " + r.body()).isEqualTo(200);
  }

  @Override
  public void close() {
    server.close();
  }
}
