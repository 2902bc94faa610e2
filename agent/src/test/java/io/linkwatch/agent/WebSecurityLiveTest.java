package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import at.favre.lib.crypto.bcrypt.BCrypt;
import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.Certs;
import io.linkwatch.testing.PrometheusServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent behind its web config, with real clients: curl over TLS and HTTP/2 (with and without a
 * client certificate where one is required, with right and wrong passwords), a real Prometheus
 * scraping with {@code tls_config} + {@code basic_auth}, and a certificate rotated under a running
 * agent.
 */
class WebSecurityLiveTest {
  static final String PROBES =
      AgentProcess.onlyProbes(
          """
      probes:
        p2p: {every: 30s, deadline: 20s, sizes: [1MiB], warmup: 1, iterations: 2}
      """);
  static final String PASSWORD = "correct-horse";
  static final String HASH = BCrypt.withDefaults().hashToString(10, PASSWORD.toCharArray());

  @TempDir static Path certDir;
  static Certs certs;
  @TempDir Path dir;

  @BeforeAll
  static void makeCerts() throws Exception {
    certs = Certs.make(certDir);
  }

  AgentProcess start(String webYaml) throws Exception {
    Path web = dir.resolve("web.yml");
    Files.writeString(web, webYaml);
    return AgentProcess.start(dir, "web: {config_file: " + web + "}\n" + PROBES, Map.of());
  }

  /** curl's exit status and output (body, or the status code with {@code -w}). */
  record Curl(int exit, String out) {}

  static Curl curl(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new Curl(p.exitValue(), out);
  }

  static String url(AgentProcess agent, String path) {
    return "https://localhost:" + agent.port() + path;
  }

  @Test
  void tlsAndBasicAuthWithCurlAndPrometheus() throws Exception {
    String web =
        """
        tls_server_config:
          cert_file: %s
          key_file: %s
        basic_auth_users:
          prometheus: '%s'
        http_server_config:
          headers:
            X-Content-Type-Options: nosniff
        """
            .formatted(certs.serverCert, certs.serverKey, HASH);
    try (AgentProcess agent = start(web)) {
      String ca = certs.ca.toString();
      // HTTP/2 over TLS by default (http_server_config.http2), as the exporter-toolkit.
      Curl none = curl("-i", "--cacert", ca, url(agent, "/metrics"));
      assertThat(none.out())
          .startsWith("HTTP/2 401")
          .containsIgnoringCase("WWW-Authenticate: Basic realm=");
      Curl wrong = curl("-i", "--cacert", ca, "-u", "prometheus:tr0ub4dor", url(agent, "/healthz"));
      assertThat(wrong.out()).startsWith("HTTP/2 401");
      Curl right =
          curl("-i", "--cacert", ca, "-u", "prometheus:" + PASSWORD, url(agent, "/metrics"));
      assertThat(right.out())
          .startsWith("HTTP/2 200")
          .containsIgnoringCase("X-Content-Type-Options: nosniff")
          .contains("linkwatch_build_info");
      // Every path is behind the login, and plain HTTP is not served at all.
      assertThat(
              curl("-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca, url(agent, "/")).out())
          .isEqualTo("401");
      assertThat(curl("http://127.0.0.1:" + agent.port() + "/healthz").exit()).isNotZero();
      assertThat(agent.log())
          .anySatisfy(l -> assertThat(l).contains("wrong user or password for user 'prometheus'"))
          .noneSatisfy(l -> assertThat(l).contains("tr0ub4dor"));

      String tls =
          "    scheme: https\n    tls_config:\n      ca_file: "
              + ca
              + "\n      server_name: localhost\n";
      try (PrometheusServer good =
          PrometheusServer.start(
              Files.createDirectories(dir.resolve("good")),
              agent.port(),
              "1s",
              tls
                  + "    basic_auth:\n      username: prometheus\n      password: "
                  + PASSWORD
                  + "\n")) {
        JsonNode target = awaitTarget(good, "up");
        assertThat(target.get("lastError").asText()).isEmpty();
      }
      try (PrometheusServer bad =
          PrometheusServer.start(
              Files.createDirectories(dir.resolve("bad")),
              agent.port(),
              "1s",
              tls + "    basic_auth:\n      username: prometheus\n      password: nope\n")) {
        JsonNode target = awaitTarget(bad, "down");
        assertThat(target.get("lastError").asText()).contains("401");
      }
    }
  }

  @Test
  void aRequiredClientCertificateIsVerified() throws Exception {
    String web =
        """
        tls_server_config:
          cert_file: %s
          key_file: %s
          client_auth_type: RequireAndVerifyClientCert
          client_ca_file: %s
        """
            .formatted(certs.serverCert, certs.serverKey, certs.ca);
    try (AgentProcess agent = start(web)) {
      String ca = certs.ca.toString();
      Curl without = curl("--cacert", ca, url(agent, "/healthz"));
      assertThat(without.exit()).as(without.out()).isNotZero();
      Curl with =
          curl(
              "--cacert",
              ca,
              "--cert",
              certs.clientCert.toString(),
              "--key",
              certs.clientKey.toString(),
              url(agent, "/healthz"));
      assertThat(with.exit()).as(with.out()).isZero();
      assertThat(with.out()).isEqualTo("ok\n");
      // A client certificate the CA did not sign is refused.
      Path self = dir.resolve("self.pem");
      Path selfKey = dir.resolve("self-key.pem");
      Certs.openssl(
          dir,
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=stranger",
          "-keyout",
          selfKey.toString(),
          "-out",
          self.toString());
      Curl stranger =
          curl(
              "--cacert",
              ca,
              "--cert",
              self.toString(),
              "--key",
              selfKey.toString(),
              url(agent, "/healthz"));
      assertThat(stranger.exit()).as(stranger.out()).isNotZero();
    }
  }

  @Test
  void aRotatedCertificateIsServedWithoutARestart() throws Exception {
    Path cert = dir.resolve("live.pem");
    Path key = dir.resolve("live-key.pem");
    Files.copy(certs.serverCert, cert);
    Files.copy(certs.serverKey, key);
    String web = "tls_server_config:\n  cert_file: %s\n  key_file: %s\n".formatted(cert, key);
    try (AgentProcess agent = start(web)) {
      assertThat(servedSubject(agent)).contains("CN = server");
      Certs next = Certs.make(dir.resolve("next"));
      // The new pair under the same names, key first: until both match, the last good one stays.
      Files.copy(next.serverKey, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.copy(next.serverCert, cert, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      String issuer = "";
      while (System.nanoTime() < end) {
        issuer = servedIssuer(agent, next.ca);
        if (issuer.contains("Verify return code: 0 (ok)")) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(issuer)
          .as("the new certificate, signed by the new CA, is served")
          .contains("Verify return code: 0 (ok)");
      assertThat(curl("--cacert", next.ca.toString(), url(agent, "/healthz")).out())
          .isEqualTo("ok\n");
    }
  }

  @Test
  void curvePreferencesLimitTheKeyExchange() throws Exception {
    String web =
        "tls_server_config:\n  cert_file: %s\n  key_file: %s\n  curve_preferences: [CurveP384]\n"
            .formatted(certs.serverCert, certs.serverKey);
    try (AgentProcess agent = start(web)) {
      assertThat(sClient(agent, certs.ca, "-groups", "P-384"))
          .contains("Server Temp Key: ECDH, secp384r1");
      assertThat(sClient(agent, certs.ca, "-groups", "X25519")).contains("Cipher is (NONE)");
    }
  }

  static String servedSubject(AgentProcess agent) throws Exception {
    return sClient(agent, certs.ca);
  }

  static String servedIssuer(AgentProcess agent, Path ca) throws Exception {
    return sClient(agent, ca);
  }

  static String sClient(AgentProcess agent, Path ca, String... more) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "openssl",
                "s_client",
                "-connect",
                "127.0.0.1:" + agent.port(),
                "-servername",
                "localhost",
                "-CAfile",
                ca.toString()));
    cmd.addAll(List.of(more));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(20, TimeUnit.SECONDS);
    return out;
  }

  static JsonNode awaitTarget(PrometheusServer p, String health) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    JsonNode last = null;
    while (System.nanoTime() < end) {
      JsonNode targets = p.targets();
      if (targets.size() > 0) {
        last = targets.get(0);
        if (last.get("health").asText().equals(health)) {
          return last;
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("target never " + health + ": " + last);
  }
}
