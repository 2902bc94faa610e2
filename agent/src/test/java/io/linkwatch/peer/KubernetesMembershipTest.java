package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.testing.Certs;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The members from a Service's EndpointSlices: the parsing of the API's list documents (shaped as
 * an API server answers, several slices, endpoints not ready or without a ready condition, IPv6, a
 * dual-stack Service, a slice without the port), and the reads over real TLS against a loopback
 * HTTPS server standing in for the API server (token, CA, label selector, pages, refusals).
 */
class KubernetesMembershipTest {
  /** Two IPv4 slices of one Service (the controller splits at 100 endpoints) and one IPv6 slice. */
  static final String PAGE_1 =
      """
      {"kind": "EndpointSliceList", "apiVersion": "discovery.k8s.io/v1",
       "metadata": {"resourceVersion": "48213", "continue": "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ"},
       "items": [
        {"metadata": {"name": "linkwatch-7xk2p", "namespace": "linkwatch",
                      "labels": {"kubernetes.io/service-name": "linkwatch",
                                 "endpointslice.kubernetes.io/managed-by":
                                     "endpointslice-controller.k8s.io"}},
         "addressType": "IPv4",
         "endpoints": [
          {"addresses": ["10.244.2.9"],
           "conditions": {"ready": true, "serving": true, "terminating": false},
           "nodeName": "node-02",
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-b7c2d",
                         "uid": "0d1e6a8c-6f9b-4c34-9b8e-3c1f1f2f0b11"}},
          {"addresses": ["10.244.1.7"],
           "conditions": {"ready": true, "serving": true, "terminating": false},
           "nodeName": "node-01",
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-a1f3e"}},
          {"addresses": ["10.244.3.4"],
           "conditions": {"ready": false, "serving": false, "terminating": false},
           "nodeName": "node-03",
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-c9d8f"}}],
         "ports": [{"name": "metrics", "protocol": "TCP", "port": 10187}]}]}
      """;

  static final String PAGE_2 =
      """
      {"kind": "EndpointSliceList", "apiVersion": "discovery.k8s.io/v1",
       "metadata": {"resourceVersion": "48213"},
       "items": [
        {"metadata": {"name": "linkwatch-q9wzr", "namespace": "linkwatch"},
         "addressType": "IPv4",
         "endpoints": [
          {"addresses": ["10.244.4.2"], "conditions": {},
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-d4e5f"}},
          {"addresses": ["10.244.1.7"], "conditions": {"ready": true},
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-a1f3e"}},
          {"addresses": ["10.244.5.3"],
           "conditions": {"ready": false, "serving": true, "terminating": true},
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-e6f7a"}}],
         "ports": [{"name": "metrics", "protocol": "TCP", "port": 10187}]},
        {"metadata": {"name": "linkwatch-v6-m2n4k", "namespace": "linkwatch"},
         "addressType": "IPv6",
         "endpoints": [
          {"addresses": ["fd00:10:244:6::5"], "conditions": {"ready": true}},
          {"addresses": ["fd00:10:244:1::7"], "conditions": {"ready": true},
           "targetRef": {"kind": "Pod", "namespace": "linkwatch", "name": "linkwatch-a1f3e"}}],
         "ports": [{"name": "metrics", "protocol": "TCP", "port": 10187}]},
        {"metadata": {"name": "linkwatch-other-port"},
         "addressType": "IPv4",
         "endpoints": [{"addresses": ["10.244.9.9"], "conditions": {"ready": true}}],
         "ports": [{"name": "debug", "protocol": "TCP", "port": 9000}]}]}
      """;

  static final List<Member> MEMBERS =
      List.of(
          new Member("10.244.1.7:10187", null),
          new Member("10.244.2.9:10187", null),
          new Member("10.244.4.2:10187", null),
          new Member("[fd00:10:244:6::5]:10187", null));

  static List<JsonElement> slices(String... pages) {
    List<JsonElement> out = new ArrayList<>();
    for (String p : pages) {
      out.addAll(KubernetesMembership.parse(p).items());
    }
    return out;
  }

  @Test
  void readyEndpointsOnTheNamedPortOnceEachSorted() {
    assertThat(KubernetesMembership.parse(PAGE_1).next())
        .isEqualTo("eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ");
    assertThat(KubernetesMembership.parse(PAGE_2).next()).isNull();
    // Not ready (10.244.3.4; 10.244.5.3, terminating) left out; a ready condition absent counts as
    // ready (10.244.4.2); the pod in two slices (and in the IPv6 one) is one member, by IPv4; the
    // slice without a port named metrics (10.244.9.9) is left out; IPv6 in brackets.
    assertThat(KubernetesMembership.members(slices(PAGE_1, PAGE_2), "metrics"))
        .containsExactlyElementsOf(MEMBERS);
    assertThat(MEMBERS.stream().map(Member::tor)).containsOnlyNulls();
  }

  @Test
  void anIpv6OnlyServiceAndAnotherPortName() {
    String doc =
        """
        {"kind": "EndpointSliceList", "metadata": {"continue": ""}, "items": [
          {"addressType": "IPv6",
           "endpoints": [{"addresses": ["fd00::2"], "conditions": {"ready": true},
                          "targetRef": {"kind": "Pod", "name": "b"}},
                         {"addresses": ["fd00::1"], "targetRef": {"kind": "Pod", "name": "a"}}],
           "ports": [{"name": "debug", "port": 9000}, {"name": "agent", "port": 9100}]}]}
        """;
    assertThat(KubernetesMembership.parse(doc).next()).isNull();
    assertThat(KubernetesMembership.members(slices(doc), "agent"))
        .containsExactly(new Member("[fd00::1]:9100", null), new Member("[fd00::2]:9100", null));
  }

  @Test
  void aPortNameNoSliceHasIsAnErrorAndNoSlicesAreNoMembers() {
    assertThatThrownBy(() -> KubernetesMembership.members(slices(PAGE_1, PAGE_2), "metric"))
        .hasMessage(
            "no EndpointSlice has a port named 'metric' (ports: debug, metrics): set"
                + " peers.kubernetes.port");
    String none = "{\"kind\": \"EndpointSliceList\", \"metadata\": {}, \"items\": []}";
    assertThat(KubernetesMembership.members(slices(none), "metrics")).isEmpty();
    assertThatThrownBy(() -> KubernetesMembership.parse("[]"))
        .hasMessageContaining("not an EndpointSliceList");
  }

  @Test
  void refusalsSayWhatToDo() {
    String forbidden =
        """
        {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
         "message": "endpointslices.discovery.k8s.io is forbidden: User \\"system:serviceaccount:linkwatch:linkwatch\\" cannot list resource \\"endpointslices\\" in API group \\"discovery.k8s.io\\" in the namespace \\"linkwatch\\"",
         "reason": "Forbidden", "details": {"group": "discovery.k8s.io", "kind": "endpointslices"},
         "code": 403}
        """;
    assertThat(KubernetesMembership.refusal(403, forbidden, "linkwatch"))
        .isEqualTo(
            "HTTP 403: endpointslices.discovery.k8s.io is forbidden: User"
                + " \"system:serviceaccount:linkwatch:linkwatch\" cannot list resource"
                + " \"endpointslices\" in API group \"discovery.k8s.io\" in the namespace"
                + " \"linkwatch\" (the service account needs list on endpointslices, API group"
                + " discovery.k8s.io, in namespace linkwatch: docs/peers.md)");
    assertThat(KubernetesMembership.refusal(401, "{\"message\": \"Unauthorized\"}", "x"))
        .isEqualTo("HTTP 401: Unauthorized (the service-account token was not accepted)");
    assertThat(KubernetesMembership.refusal(502, "Bad gateway\nmore", "x"))
        .isEqualTo("HTTP 502: Bad gateway");
  }

  // --- against a loopback HTTPS server standing in for the API server ----------------------------

  @TempDir static Path certDir;
  static Certs certs;
  static Certs other;

  @BeforeAll
  static void makeCerts() throws Exception {
    certs = Certs.make(certDir.resolve("ca"));
    other = Certs.make(certDir.resolve("other"));
  }

  /** What the fake API server saw of one request. */
  record Seen(String path, Map<String, String> query, String authorization) {}

  @TempDir Path sa;
  HttpsServer server;
  final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  final AtomicInteger status = new AtomicInteger(200);
  final AtomicReference<String> refusal = new AtomicReference<>("");
  final AtomicReference<String[]> pages = new AtomicReference<>(new String[] {PAGE_1, PAGE_2});

  @BeforeEach
  void startServer() throws Exception {
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(
        new PemKeyCertOptions()
            .setCertValue(Buffer.buffer(Files.readAllBytes(certs.serverCert)))
            .setKeyValue(Buffer.buffer(Files.readAllBytes(certs.serverKey)))
            .getKeyManagerFactory(null)
            .getKeyManagers(),
        null,
        null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ssl));
    server.createContext(
        "/",
        x -> {
          Map<String, String> query = new java.util.TreeMap<>();
          String raw = x.getRequestURI().getRawQuery();
          for (String kv : raw == null ? new String[0] : raw.split("&")) {
            int eq = kv.indexOf('=');
            query.put(
                URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
                URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
          }
          seen.add(
              new Seen(
                  x.getRequestURI().getPath(),
                  query,
                  x.getRequestHeaders().getFirst("Authorization")));
          String body;
          int code = status.get();
          if (code != 200) {
            body = refusal.get();
          } else {
            // The page the continue token names: "p<N>" for page N; the first page without one.
            String[] all = pages.get();
            int page =
                query.containsKey("continue")
                    ? Integer.parseInt(query.get("continue").substring(1))
                    : 0;
            body =
                all[page].replace(
                    "\"continue\": \"eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ\"",
                    page + 1 < all.length ? "\"continue\": \"p" + (page + 1) + "\"" : "\"x\": 0");
          }
          byte[] b = body.getBytes(StandardCharsets.UTF_8);
          x.getResponseHeaders().add("Content-Type", "application/json");
          x.sendResponseHeaders(code, b.length);
          x.getResponseBody().write(b);
          x.close();
        });
    server.start();
    Files.writeString(sa.resolve("token"), "token-one\n");
    Files.writeString(sa.resolve("namespace"), "linkwatch");
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  /** Against the loopback server by name (the server's certificate is for localhost). */
  KubernetesMembership membership(Optional<String> namespace, Path ca) {
    return new KubernetesMembership(
        new PeerConfig.Kubernetes(
            "linkwatch",
            namespace,
            "metrics",
            Duration.ofMinutes(1),
            Optional.of(URI.create("https://localhost:" + server.getAddress().getPort())),
            sa.resolve("token"),
            ca),
        name -> null);
  }

  @Test
  void readsEveryPageWithTheTokenTheSelectorAndTheNamespaceOfThePod() throws Exception {
    KubernetesMembership m = membership(Optional.empty(), certs.ca);
    try {
      m.read();
      assertThat(m.lastError()).isNull();
      assertThat(m.current()).containsExactlyElementsOf(MEMBERS);
      assertThat(seen).hasSize(2);
      for (Seen s : seen) {
        assertThat(s.path())
            .isEqualTo("/apis/discovery.k8s.io/v1/namespaces/linkwatch/endpointslices");
        assertThat(s.query())
            .containsEntry("labelSelector", "kubernetes.io/service-name=linkwatch")
            .containsEntry("limit", "500");
        assertThat(s.authorization()).isEqualTo("Bearer token-one");
      }
      assertThat(seen.get(0).query()).doesNotContainKey("continue");
      assertThat(seen.get(1).query()).containsEntry("continue", "p1");
      assertThat(m.shown()).isEqualTo("the EndpointSlices of service linkwatch/linkwatch");

      // A rotated token is the one sent next.
      Files.writeString(sa.resolve("token"), "token-two");
      pages.set(new String[] {PAGE_2});
      m.read();
      assertThat(seen).hasSize(3);
      assertThat(seen.get(2).authorization()).isEqualTo("Bearer token-two");
      assertThat(m.current())
          .containsExactly(
              new Member("10.244.1.7:10187", null),
              new Member("10.244.4.2:10187", null),
              new Member("[fd00:10:244:6::5]:10187", null));
    } finally {
      m.close();
    }
  }

  @Test
  void aConfiguredNamespaceIsTheOneListed() throws Exception {
    KubernetesMembership m = membership(Optional.of("monitoring"), certs.ca);
    try {
      m.read();
      assertThat(seen.get(0).path())
          .isEqualTo("/apis/discovery.k8s.io/v1/namespaces/monitoring/endpointslices");
    } finally {
      m.close();
    }
  }

  @Test
  void aServerTheCaDidNotSignIsNotTrusted() throws Exception {
    KubernetesMembership m = membership(Optional.empty(), other.ca);
    try {
      m.read();
      assertThat(seen).as("no request reached the handler").isEmpty();
      assertThat(m.current()).isEmpty();
      assertThat(m.failures()).isEqualTo(1);
      assertThat(m.lastError()).isNotNull();
      // The CA file is read again: the right one, and the same membership reads.
      Files.copy(certs.ca, sa.resolve("ca.crt"));
      KubernetesMembership right = membership(Optional.empty(), sa.resolve("ca.crt"));
      try {
        right.read();
        assertThat(right.lastError()).isNull();
        assertThat(right.current()).hasSize(4);
      } finally {
        right.close();
      }
    } finally {
      m.close();
    }
  }

  @Test
  void aForbiddenListKeepsTheLastMembersCountsAndSaysWhy() throws Exception {
    KubernetesMembership m = membership(Optional.empty(), certs.ca);
    try {
      m.read();
      assertThat(m.current()).hasSize(4);

      status.set(403);
      refusal.set(
          "{\"kind\": \"Status\", \"status\": \"Failure\", \"message\": \"endpointslices is"
              + " forbidden\", \"reason\": \"Forbidden\", \"code\": 403}");
      m.read();
      assertThat(m.current()).as("kept through a refused read").hasSize(4);
      assertThat(m.lastError())
          .isEqualTo(
              "HTTP 403: endpointslices is forbidden (the service account needs list on"
                  + " endpointslices, API group discovery.k8s.io, in namespace linkwatch:"
                  + " docs/peers.md)");
      assertThat(m.failures()).isEqualTo(1);
      m.read();
      assertThat(m.failures()).isEqualTo(2);

      status.set(200);
      pages.set(new String[] {PAGE_2});
      m.read();
      assertThat(m.lastError()).isNull();
      assertThat(m.failures()).isEqualTo(2);
      assertThat(m.current()).hasSize(3);
    } finally {
      m.close();
    }
  }

  @Test
  void missingFilesAndEnvironmentAreNamed() throws Exception {
    Files.delete(sa.resolve("token"));
    KubernetesMembership m = membership(Optional.of("linkwatch"), certs.ca);
    try {
      m.read();
      assertThat(m.lastError())
          .startsWith("the service-account token: " + sa.resolve("token") + ": no such file");
      assertThat(seen).isEmpty();
    } finally {
      m.close();
    }
    Files.writeString(sa.resolve("token"), "t");
    m = membership(Optional.of("linkwatch"), sa.resolve("no-ca.crt"));
    try {
      m.read();
      assertThat(m.lastError())
          .startsWith("the API server's CA: " + sa.resolve("no-ca.crt") + ": no such file");
    } finally {
      m.close();
    }
    Files.delete(sa.resolve("namespace"));
    m = membership(Optional.empty(), certs.ca);
    try {
      m.read();
      assertThat(m.lastError())
          .startsWith("the pod's namespace: " + sa.resolve("namespace") + ": no such file");
    } finally {
      m.close();
    }
  }

  @Test
  void inAPodTheApiServerIsTheOneTheEnvironmentNames() throws Exception {
    PeerConfig.Kubernetes k =
        new PeerConfig.Kubernetes(
            "linkwatch",
            Optional.empty(),
            "metrics",
            Duration.ofMinutes(1),
            Optional.empty(),
            sa.resolve("token"),
            certs.ca);
    Map<String, String> env =
        Map.of(
            "KUBERNETES_SERVICE_HOST",
            "localhost",
            "KUBERNETES_SERVICE_PORT",
            String.valueOf(server.getAddress().getPort()));
    KubernetesMembership m = new KubernetesMembership(k, env::get);
    try {
      m.read();
      assertThat(m.lastError()).isNull();
      assertThat(m.current()).hasSize(4);
    } finally {
      m.close();
    }
    KubernetesMembership away = new KubernetesMembership(k, name -> null);
    try {
      away.read();
      assertThat(away.lastError())
          .isEqualTo(
              "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not in a pod?):"
                  + " set peers.kubernetes.api_server");
    } finally {
      away.close();
    }
  }
}
