package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.linkwatch.cli.Main;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.Certs;
import io.linkwatch.testing.JavaProcess;
import io.linkwatch.verdict.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linkwatch status} and {@code check} against an agent behind TLS with its own CA, a
 * required client certificate and bcrypt basic auth, over loopback: without {@code
 * --http.config.file} (or with an incomplete one) status is UNKNOWN and check notes why, each
 * naming what to set; with it, the verdict is the one the agent's figures give. One agent serves
 * every case.
 */
class StatusAuthLiveTest {
  static final String PASSWORD = "correct-horse";

  /** Small copies: on a loaded machine 256MiB ones can pass a short deadline. */
  static final String PROBES =
      AgentProcess.onlyProbes(
          """
          passive:
            interval: 2s
            deadline: 1500ms
          probes:
            p2p: {every: 30s, deadline: 20s, sizes: [1MiB], warmup: 1, iterations: 2}
            topology: {every: 1h, deadline: 30s}
          """);

  @TempDir Path dir;

  /** One {@code linkwatch} run in this JVM: exit code, stdout, stderr. */
  record Run(int exit, String out, String err) {
    String first() {
      return out.lines().findFirst().orElse("");
    }
  }

  static Run linkwatch(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** {@code status} at {@code url} with the client config {@code yaml} (none when null). */
  Run status(String url, String yaml) throws Exception {
    List<String> args = new ArrayList<>(List.of("status", "--url", url, "--timeout", "5s"));
    if (yaml != null) {
      Path file = Files.createTempFile(dir, "http", ".yml");
      Files.writeString(file, yaml);
      args.addAll(List.of("--http.config.file", file.toString()));
    }
    return linkwatch(args.toArray(new String[0]));
  }

  /** The status document as curl reads it, its login from a curl config file (not argv). */
  String curlStatus(Certs certs, int port) throws Exception {
    Path curlConfig = dir.resolve("curl.cfg");
    Files.writeString(curlConfig, "user = \"prometheus:" + PASSWORD + "\"\n");
    Process p =
        new ProcessBuilder(
                "curl",
                "-sS",
                "--max-time",
                "10",
                "-K",
                curlConfig.toString(),
                "--cacert",
                certs.ca.toString(),
                "--cert",
                certs.clientCert.toString(),
                "--key",
                certs.clientKey.toString(),
                "https://127.0.0.1:" + port + "/api/v1/status")
            .redirectErrorStream(true)
            .start();
    String body = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(body).isZero();
    return body;
  }

  static String verdictOf(String statusJson) throws java.io.IOException {
    Verdict v =
        Verdict.judge(
            io.linkwatch.status.StatusCodec.decode(statusJson),
            ConfigLoader.defaults().expectedFigures());
    return v.firstLine(v.state().name());
  }

  @Test
  void statusLogsInAndTrustsTheAgentsCa() throws Exception {
    Certs certs = Certs.make(dir.resolve("certs"));
    Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    Path web = dir.resolve("web.yml");
    Files.writeString(
        web,
        """
        tls_server_config:
          cert_file: %s
          key_file: %s
          client_auth_type: RequireAndVerifyClientCert
          client_ca_file: %s
        basic_auth_users:
          prometheus: '%s'
        """
            .formatted(
                certs.serverCert,
                certs.serverKey,
                certs.ca,
                BCrypt.withDefaults().hashToString(10, PASSWORD.toCharArray())));
    // Relative names: taken from the client config's directory (dir), not the working directory.
    String ca = "tls_config:\n  ca_file: certs/ca.pem\n";
    String client = ca + "  cert_file: certs/client.pem\n  key_file: certs/client-key.pem\n";
    String login = "basic_auth:\n  username: prometheus\n  password_file: password\n";
    try (AgentProcess agent =
        AgentProcess.start(dir, "web: {config_file: " + web + "}\n" + PROBES, Map.of())) {
      String url = "https://127.0.0.1:" + agent.port();

      // Without the option: the agent's CA is not the JDK's, and the line says what to set.
      Run untrusted = status(url, null);
      assertThat(untrusted.exit()).as(untrusted.toString()).isEqualTo(2);
      assertThat(untrusted.first())
          .startsWith("UNKNOWN - agent at " + url + ": LW-NO-AGENT certificate not trusted")
          .hasSizeLessThanOrEqualTo(Verdict.MAX_FIRST_LINE);
      assertThat(untrusted.out())
          .contains("certificate not trusted: set tls_config.ca_file in --http.config.file");

      Run noClientCert = status(url, ca + login);
      assertThat(noClientCert.out())
          .as(noClientCert.toString())
          .contains(
              "the agent wants a client certificate: set tls_config.cert_file and key_file in"
                  + " --http.config.file");

      Run noLogin = status(url, client);
      assertThat(noLogin.exit()).isEqualTo(2);
      assertThat(noLogin.first()).contains("LW-NO-AGENT HTTP 401");
      assertThat(noLogin.out())
          .contains("HTTP 401: the agent wants a login: set basic_auth in --http.config.file");

      Run wrong = status(url, client + "basic_auth: {username: prometheus, password: tr0ub4dor}\n");
      assertThat(wrong.exit()).isEqualTo(2);
      assertThat(wrong.first()).contains("LW-NO-AGENT HTTP 401");
      assertThat(wrong.out())
          .contains("HTTP 401: the agent refused the login (user 'prometheus') of ")
          .doesNotContain("tr0ub4dor");

      // check reads the same agent's figures: without the way in, a note says why it could not.
      Path checkConfig = dir.resolve("check.yaml");
      Files.writeString(
          checkConfig, "coordination:\n  lock_file: " + dir.resolve("probes.lock") + "\n");
      String[] checkArgs = {
        "check",
        "--config",
        checkConfig.toString(),
        "--backend",
        "sim",
        "--devices",
        "0",
        "--url",
        url
      };
      JavaProcess.Result check = JavaProcess.run(Map.of(), Duration.ofSeconds(120), checkArgs);
      assertThat(check.out())
          .as(check.toString())
          .contains(
              "note: no answer from the agent at "
                  + url
                  + " (certificate not trusted: set tls_config.ca_file in --http.config.file):"
                  + " judged without this host's earlier figures");
      Path httpConfig = dir.resolve("http.yml");
      Files.writeString(httpConfig, client + login);
      String[] withConfig = Arrays.copyOf(checkArgs, checkArgs.length + 2);
      withConfig[checkArgs.length] = "--http.config.file";
      withConfig[checkArgs.length + 1] = httpConfig.toString();
      JavaProcess.Result checkIn = JavaProcess.run(Map.of(), Duration.ofSeconds(120), withConfig);
      assertThat(checkIn.out()).as(checkIn.toString()).doesNotContain("no answer from the agent");
      assertThat(checkIn.out() + checkIn.err()).doesNotContain(PASSWORD);

      // Plain HTTP to the TLS port: the agent closes without a word; the line says why.
      Run plain = status("http://127.0.0.1:" + agent.port(), null);
      assertThat(plain.exit()).isEqualTo(2);
      assertThat(plain.out())
          .contains("closed without an answer: a TLS agent wants https:// in --url");

      // Right: the verdict of the agent's figures, once it has measured.
      String expected = "OK - 2 devices, [0-9]+ p2p figures, 2 links: as expected";
      Run ok = status(url, client + login);
      long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!ok.first().matches(expected) && System.nanoTime() < until) {
        Thread.sleep(1000);
        ok = status(url, client + login);
      }
      assertThat(ok.exit()).as(ok.toString()).isZero();
      assertThat(ok.first()).matches(expected);
      // The same verdict as the agent's document gives read by another client (curl).
      assertThat(ok.first()).isEqualTo(verdictOf(curlStatus(certs, agent.port())));
      assertThat(ok.out() + ok.err()).doesNotContain(PASSWORD);
      // insecure_skip_verify: no CA, and still in (the first test of a new install).
      Run skip =
          status(
              url,
              "tls_config:\n  insecure_skip_verify: true\n  cert_file: certs/client.pem\n"
                  + "  key_file: certs/client-key.pem\n"
                  + login);
      assertThat(skip.first()).as(skip.toString()).matches(expected);
      assertThat(agent.log()).noneSatisfy(l -> assertThat(l).contains(PASSWORD));
    }
  }
}
