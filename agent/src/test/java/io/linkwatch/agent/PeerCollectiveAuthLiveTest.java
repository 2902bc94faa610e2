package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.Certs;
import io.linkwatch.testing.PrometheusServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The two-host allreduce between agents that serve https and want a login, over loopback: a prober
 * with {@code peers.collective.http_config_file} (the CA and the login) gets its lease and
 * measures; one without it is refused by its peers' login (HTTP 401), which it records as {@code
 * lease_failed}, not as a failed path.
 */
@Execution(ExecutionMode.CONCURRENT)
class PeerCollectiveAuthLiveTest {
  private static final String PASSWORD = "c0rrect-h0rse";

  @TempDir Path dir;

  private final List<AgentProcess> agents = new ArrayList<>();

  @Test
  void aProberWithTheFleetsLoginMeasuresOneWithoutIsRefused() throws Exception {
    Certs certs = Certs.make(dir.resolve("certs"));
    Path web = dir.resolve("web.yml");
    Files.writeString(
        web,
        """
        tls_server_config:
          cert_file: %s
          key_file: %s
        basic_auth_users:
          linkwatch: '%s'
        """
            .formatted(
                certs.serverCert,
                certs.serverKey,
                BCrypt.withDefaults().hashToString(10, PASSWORD.toCharArray())));
    Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    Path login = dir.resolve("peers-http.yml");
    Files.writeString(
        login,
        "tls_config:\n  ca_file: certs/ca.pem\n"
            + "basic_auth:\n  username: linkwatch\n  password_file: password\n");
    Path noLogin = dir.resolve("peers-tls-only.yml");
    Files.writeString(noLogin, "tls_config:\n  ca_file: certs/ca.pem\n");

    // Three members as their names sort: the first probes both others, the second the third.
    List<String> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      members.add("127.0.0.1:" + PrometheusServer.freePort());
    }
    members.sort(null);
    StringBuilder list = new StringBuilder();
    members.forEach(m -> list.append("    - host: \"").append(m).append("\"\n"));
    for (int i = 0; i < 3; i++) {
      // The first trusts its peers' certificates but has no login; the others have the fleet's.
      String http = "    http_config_file: " + (i == 0 ? noLogin : login) + "\n";
      String config =
          "web: {config_file: "
              + web
              + "}\npassive:\n  enabled: false\npeers:\n  round: 60s\n  static:\n"
              + list
              + "  collective:\n    every: 6s\n    deadline: 5s\n    sizes: [1KiB, 64KiB]\n"
              + "    warmup: 1\n    iterations: 2\n"
              + http
              + "probes:\n  topology: {enabled: false}\n";
      Path home = Files.createDirectories(dir.resolve("host-" + i));
      agents.add(
          AgentProcess.startWrapped(
              home, List.of(), members.get(i), AgentProcess.onlyProbes(config)));
    }

    String measured =
        awaitLog(
            1,
            line ->
                line.contains("probe=peer_allreduce peer=" + members.get(2) + " result=success"));
    assertThat(measured).contains(" 64KiB busbw ");
    assertThat(
            awaitLog(
                2,
                line ->
                    line.contains(
                        "probe=peer_allreduce peer="
                            + members.get(1)
                            + " role=responder result=success")))
        .isNotEmpty();
    String refused =
        awaitLog(
            0,
            line ->
                line.contains("probe=peer_allreduce")
                    && line.contains("result=lease_failed")
                    && line.contains("HTTP 401"));
    assertThat(refused).contains("for a lease: HTTP 401 from /api/v1/peer/lease: unauthorized");
    assertThat(agents.get(0).log())
        .as("the login's refusal is not a verdict on the path")
        .noneMatch(l -> l.contains("probe=peer_allreduce") && l.contains("result=error"));
  }

  private String awaitLog(int agent, Predicate<String> match) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < end) {
      for (String line : agents.get(agent).log()) {
        if (match.test(line)) {
          return line;
        }
      }
      Thread.sleep(250);
    }
    StringBuilder logs = new StringBuilder();
    for (int i = 0; i < agents.size(); i++) {
      logs.append("\nagent ").append(i).append(":");
      agents.get(i).log().stream()
          .filter(l -> l.contains("peer") || l.contains("ERROR") || l.contains("WARN"))
          .forEach(l -> logs.append("\n  ").append(l));
    }
    throw new AssertionError("agent " + agent + ": no such line" + logs);
  }

  @AfterEach
  void stop() {
    agents.forEach(AgentProcess::close);
  }
}
