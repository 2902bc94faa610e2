package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.linkwatch.peer.PeerSchedule.Member;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The members from a Prometheus HTTP SD document, read over real HTTP on loopback. */
class HttpSdMembershipTest {
  static final String DOC =
      """
      [{"targets": ["n-02:10187", "n-01:10187"], "labels": {"tor": "t1", "rail": "r0"}},
       {"targets": ["[fd00::7]:10187", "no-port"], "labels": {}},
       {"targets": ["n-01:10187"]},
       {"targets": ["n-03:10187"],
        "labels": {"__meta_linkwatch_tor": "t2", "__meta_linkwatch_rail": "r1"}}]
      """;

  @Test
  void parsesGroupsWithTheirLabelsAndLeavesOutWhatIsNotHostPort() {
    // Plain labels as a hand-written list has them, meta labels as the agents serve them.
    assertThat(HttpSdMembership.parse(DOC))
        .containsExactly(
            new Member("n-02:10187", "t1", "r0"),
            new Member("n-01:10187", "t1", "r0"),
            new Member("[fd00::7]:10187", null, null),
            new Member("n-03:10187", "t2", "r1"));
    assertThatThrownBy(() -> HttpSdMembership.parse("{\"targets\": []}"))
        .hasMessageContaining("not a JSON list of target groups");
  }

  @Test
  void aFailedReadKeepsTheLastListAndSaysWhy() throws Exception {
    AtomicReference<String> body = new AtomicReference<>(DOC);
    AtomicInteger status = new AtomicInteger(200);
    AtomicReference<String> auth = new AtomicReference<>();
    AtomicReference<String> refresh = new AtomicReference<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/sd",
        x -> {
          auth.set(x.getRequestHeaders().getFirst("Authorization"));
          refresh.set(x.getRequestHeaders().getFirst("X-Prometheus-Refresh-Interval-Seconds"));
          byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(status.get(), b.length);
          x.getResponseBody().write(b);
          x.close();
        });
    server.start();
    URI url = URI.create("http://ops:s3cret@127.0.0.1:" + server.getAddress().getPort() + "/sd");
    HttpSdMembership m = new HttpSdMembership(url, Duration.ofSeconds(30));
    try {
      m.read();
      assertThat(m.current()).hasSize(4);
      assertThat(m.lastError()).isNull();
      assertThat(auth.get()).isEqualTo("Basic b3BzOnMzY3JldA==");
      assertThat(refresh.get()).isEqualTo("30");

      status.set(503);
      m.read();
      assertThat(m.current()).as("kept through a failed read").hasSize(4);
      assertThat(m.lastError()).isEqualTo("HTTP 503");
      assertThat(m.failures()).isEqualTo(1);

      status.set(200);
      body.set("[{\"targets\": [\"n-09:10187\"]}]");
      m.read();
      assertThat(m.current()).containsExactly(new Member("n-09:10187", null, null));
      assertThat(m.lastError()).isNull();
    } finally {
      m.close();
      server.stop(0);
    }
  }

  @Test
  void anUnreachableUrlGivesNoMembersAndAnError() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    HttpSdMembership m =
        new HttpSdMembership(URI.create("http://127.0.0.1:" + port + "/sd"), Duration.ofSeconds(5));
    try {
      m.read();
      assertThat(m.current()).isEmpty();
      assertThat(m.lastError()).isNotBlank();
      assertThat(m.failures()).isEqualTo(1);
      assertThat(List.of(m.source())).containsExactly("http_sd");
    } finally {
      m.close();
    }
  }
}
