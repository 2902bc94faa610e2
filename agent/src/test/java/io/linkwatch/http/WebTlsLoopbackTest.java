package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.WebConfig;
import io.linkwatch.config.WebConfigLoader;
import io.linkwatch.config.WebSettings;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.Certs;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509KeyManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web config served for real: the agent's HTTP server on loopback, a JDK HTTP client over TLS
 * (HTTP/2 when offered), with and without a client certificate, for each {@code client_auth_type}:
 * a certificate of another CA, a SAN that is not allowed, inline PEM, the headers, the rate limit,
 * and the exporter-toolkit's own test certificates against its own example files. Certificates are
 * made by openssl ({@link Certs}). The client always presents its certificate when asked, whatever
 * CAs the server names (as the exporter-toolkit's tests do).
 */
class WebTlsLoopbackTest {
  @TempDir static Path dir;
  static Certs certs;
  static Certs other;
  static Path[] allowedSan;
  static Path[] otherSan;

  @BeforeAll
  static void makeCerts() throws Exception {
    certs = Certs.make(dir.resolve("ca"));
    other = Certs.make(dir.resolve("other"));
    allowedSan = certs.client("scraper", "subjectAltName=DNS:scraper.example,IP:::1");
    otherSan = certs.client("stranger", "subjectAltName=DNS:stranger.example");
  }

  /** A client certificate and key, or none. */
  record Id(Path cert, Path key) {
    static final Id NONE = new Id(null, null);
  }

  static Id id(Path[] pair) {
    return new Id(pair[0], pair[1]);
  }

  static Id good() {
    return new Id(certs.clientCert, certs.clientKey);
  }

  static Id otherCa() {
    return new Id(other.clientCert, other.clientKey);
  }

  static HttpApi serve(String yaml) throws Exception {
    return serve(WebConfigLoader.parse("web.yml", yaml, certs.dir));
  }

  static HttpApi serve(WebConfig config) throws Exception {
    return HttpApi.start(
        "127.0.0.1",
        0,
        new PrometheusRegistry(),
        new ResultStore(Clock.systemUTC()),
        null,
        Map::of,
        new WebSettings(
            Optional.empty(), config, Duration.ofSeconds(10), 256, Duration.ofMinutes(5)));
  }

  /**
   * GET /healthz over TLS trusting {@code ca} (null: any server), presenting {@code id}; null when
   * it fails.
   */
  static HttpResponse<String> get(HttpApi api, Path ca, Id id) throws Exception {
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(keyManagers(id), ca == null ? new TrustManager[] {new AnyServer()} : trust(ca), null);
    HttpClient client =
        HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
    try {
      return client.send(
          HttpRequest.newBuilder(URI.create("https://localhost:" + api.port() + "/healthz"))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    }
  }

  static HttpResponse<String> get(HttpApi api, Id id) throws Exception {
    return get(api, certs.ca, id);
  }

  static int status(HttpApi api, Id id) throws Exception {
    HttpResponse<String> r = get(api, id);
    return r == null ? -1 : r.statusCode();
  }

  /**
   * Trusts any server: the exporter-toolkit's server.crt has key usage keyEncipherment only, which
   * Go and OpenSSL clients take and the JDK's client refuses for (EC)DHE ("KeyUsage does not allow
   * digital signatures"). What is tested there is the server's side of the handshake.
   */
  static final class AnyServer extends X509ExtendedTrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] c, String a, SSLEngine e) {}

    @Override
    public void checkServerTrusted(X509Certificate[] c, String a, Socket s) {}

    @Override
    public void checkServerTrusted(X509Certificate[] c, String a) {}

    @Override
    public void checkClientTrusted(X509Certificate[] c, String a, SSLEngine e) {}

    @Override
    public void checkClientTrusted(X509Certificate[] c, String a, Socket s) {}

    @Override
    public void checkClientTrusted(X509Certificate[] c, String a) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  static TrustManager[] trust(Path ca) throws Exception {
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    int i = 0;
    try (var in = Files.newInputStream(ca)) {
      for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        ks.setCertificateEntry("ca" + i++, c);
      }
    }
    TrustManagerFactory f = TrustManagerFactory.getInstance("PKIX");
    f.init(ks);
    return f.getTrustManagers();
  }

  /** A key manager that always presents {@code id}, whatever issuers the server names. */
  static KeyManager[] keyManagers(Id id) throws Exception {
    if (id.cert() == null) {
      return null;
    }
    X509KeyManager pem =
        (X509KeyManager)
            new PemKeyCertOptions()
                .setCertValue(Buffer.buffer(Files.readAllBytes(id.cert())))
                .setKeyValue(Buffer.buffer(Files.readAllBytes(id.key())))
                .getKeyManagerFactory(null)
                .getKeyManagers()[0];
    String[] aliases = pem.getClientAliases("RSA", null);
    String alias = aliases != null ? aliases[0] : pem.getClientAliases("EC", null)[0];
    return new KeyManager[] {
      new X509ExtendedKeyManager() {
        @Override
        public String chooseEngineClientAlias(String[] t, Principal[] i, SSLEngine e) {
          return alias;
        }

        @Override
        public String chooseClientAlias(String[] t, Principal[] i, Socket s) {
          return alias;
        }

        @Override
        public String[] getClientAliases(String t, Principal[] i) {
          return new String[] {alias};
        }

        @Override
        public String[] getServerAliases(String t, Principal[] i) {
          return null;
        }

        @Override
        public String chooseServerAlias(String t, Principal[] i, Socket s) {
          return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String a) {
          return pem.getCertificateChain(a);
        }

        @Override
        public PrivateKey getPrivateKey(String a) {
          return pem.getPrivateKey(a);
        }
      }
    };
  }

  static String tls(String more) {
    return "tls_server_config:\n  cert_file: server.pem\n  key_file: server-key.pem\n" + more;
  }

  @Test
  void noClientCertWithInlinePemServesHttp2AndTheHeaders() throws Exception {
    String yaml =
        "tls_server_config:\n  cert: |\n"
            + Files.readString(certs.serverCert).indent(4)
            + "  key: |\n"
            + Files.readString(certs.serverKey).indent(4)
            + """
            http_server_config:
              headers:
                X-Frame-Options: deny
                X-Content-Type-Options: nosniff
                Content-Security-Policy: default-src 'self'
                X-XSS-Protection: ''
            """;
    try (HttpApi api = serve(yaml)) {
      HttpResponse<String> r = get(api, Id.NONE);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(r.body()).isEqualTo("ok\n");
      assertThat(r.headers().firstValue("X-Frame-Options")).contains("deny");
      assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
      assertThat(r.headers().firstValue("Content-Security-Policy")).contains("default-src 'self'");
      assertThat(r.headers().firstValue("X-XSS-Protection")).isEmpty();
      // A certificate nobody asked for is not sent, and does not matter.
      assertThat(status(api, otherCa())).isEqualTo(200);
      // A client that does not trust the server's CA fails, as it should.
      assertThat(get(api, other.ca, Id.NONE)).isNull();
    }
  }

  @Test
  void http2OffServesHttp11() throws Exception {
    try (HttpApi api = serve(tls("http_server_config: {http2: false}\n"))) {
      HttpResponse<String> r = get(api, Id.NONE);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    }
  }

  @Test
  void requestClientCertAsksButNeitherRequiresNorVerifies() throws Exception {
    try (HttpApi api = serve(tls("  client_auth_type: RequestClientCert\n"))) {
      assertThat(status(api, Id.NONE)).isEqualTo(200);
      assertThat(status(api, otherCa())).isEqualTo(200);
      assertThat(status(api, good())).isEqualTo(200);
    }
  }

  @Test
  void requireAnyClientCertRequiresOneButDoesNotVerifyIt() throws Exception {
    try (HttpApi api = serve(tls("  client_auth_type: RequireAnyClientCert\n"))) {
      assertThat(status(api, Id.NONE)).isEqualTo(-1);
      assertThat(status(api, otherCa())).isEqualTo(200);
      assertThat(status(api, good())).isEqualTo(200);
    }
  }

  @Test
  void verifyClientCertIfGivenVerifiesOnlyAGivenOne() throws Exception {
    try (HttpApi api =
        serve(tls("  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: " + certs.ca))) {
      assertThat(status(api, Id.NONE)).isEqualTo(200);
      assertThat(status(api, good())).isEqualTo(200);
      assertThat(status(api, otherCa())).isEqualTo(-1);
    }
  }

  @Test
  void requireAndVerifyClientCertRequiresAVerifiedOne() throws Exception {
    try (HttpApi api =
        serve(tls("  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n"))) {
      assertThat(status(api, Id.NONE)).isEqualTo(-1);
      assertThat(status(api, good())).isEqualTo(200);
      assertThat(status(api, otherCa())).isEqualTo(-1);
    }
    // Without client_ca_file: the JDK's trusted CAs, which signed none of these.
    try (HttpApi api = serve(tls("  client_auth_type: RequireAndVerifyClientCert\n"))) {
      assertThat(status(api, good())).isEqualTo(-1);
    }
  }

  @Test
  void clientAllowedSansAdmitOnlyThoseSans() throws Exception {
    try (HttpApi api =
        serve(
            tls(
                "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n"
                    + "  client_allowed_sans: [scraper.example]\n"))) {
      assertThat(status(api, id(allowedSan))).isEqualTo(200);
      assertThat(status(api, id(otherSan))).isEqualTo(-1);
      assertThat(status(api, good())).as("no SAN at all").isEqualTo(-1);
    }
    // An IP SAN compares as Go writes it (::1, not 0:0:0:0:0:0:0:1); without verification the
    // SAN check still applies, and a client without a certificate is refused.
    try (HttpApi api =
        serve(tls("  client_auth_type: RequestClientCert\n  client_allowed_sans: ['::1']\n"))) {
      assertThat(status(api, id(allowedSan))).isEqualTo(200);
      assertThat(status(api, id(otherSan))).isEqualTo(-1);
      assertThat(status(api, Id.NONE)).isEqualTo(-1);
    }
  }

  @Test
  void theRateLimitAnswers429OverTheBurstAndServesAgainAfterTheInterval() throws Exception {
    WebConfig c =
        WebConfigLoader.parse("web.yml", "rate_limit: {interval: 400ms, burst: 2}\n", dir);
    try (HttpApi api = serve(c)) {
      HttpClient client = HttpClient.newHttpClient();
      URI uri = URI.create("http://127.0.0.1:" + api.port() + "/metrics");
      int[] codes = new int[3];
      for (int i = 0; i < 3; i++) {
        codes[i] =
            client
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode();
      }
      assertThat(codes).containsExactly(200, 200, 429);
      Thread.sleep(450);
      HttpResponse<String> again =
          client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(again.statusCode()).isEqualTo(200);
      HttpResponse<String> over =
          client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(over.statusCode()).isEqualTo(429);
      assertThat(over.body()).isEqualTo("Too Many Requests\n");
    }
  }

  @Test
  void theExporterToolkitsOwnFilesAndCertificatesServeAsInGo() throws Exception {
    Path go =
        Path.of(getClass().getResource("/exporter-toolkit-testdata/NOTICE").toURI()).getParent();
    Path ca = null; // see AnyServer
    Id client = new Id(go.resolve("client_selfsigned.pem"), go.resolve("client_selfsigned.key"));
    Id client2 = new Id(go.resolve("client2_selfsigned.pem"), go.resolve("client2_selfsigned.key"));
    try (HttpApi api =
        serve(WebConfigLoader.load(go.resolve("web_config_noAuth_tlsInline.good.yml")))) {
      assertThat(get(api, ca, Id.NONE).statusCode()).isEqualTo(200);
    }
    try (HttpApi api =
        serve(
            WebConfigLoader.load(go.resolve("tls_config_noAuth.requireanyclientcert.good.yml")))) {
      assertThat(get(api, ca, client).statusCode()).isEqualTo(200);
      assertThat(get(api, ca, Id.NONE)).isNull();
    }
    try (HttpApi api =
        serve(
            WebConfigLoader.load(
                go.resolve("tls_config_noAuth.requireandverifyclientcert.good.yml")))) {
      assertThat(get(api, ca, client).statusCode()).isEqualTo(200);
    }
    try (HttpApi api =
        serve(WebConfigLoader.load(go.resolve("web_config_auth_client_san.good.yaml")))) {
      assertThat(get(api, ca, client2).statusCode()).isEqualTo(200);
    }
    try (HttpApi api =
        serve(WebConfigLoader.load(go.resolve("web_config_auth_client_san.bad.yaml")))) {
      assertThat(get(api, ca, client2)).isNull();
    }
    try (HttpApi api =
        serve(WebConfigLoader.load(go.resolve("web_config_rate_limiter_one_second.yaml")))) {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as("burst 0: every request").isEqualTo(429);
    }
  }

  @Test
  void aReloadedBadFileKeepsTheLastGoodOne() throws Exception {
    Path web = dir.resolve("web.yml");
    Files.writeString(web, "http_server_config: {headers: {X-Frame-Options: deny}}\n");
    WebSettings settings = ConfigLoader.defaults().web().withConfigFile(web);
    try (HttpApi api =
        HttpApi.start(
            "127.0.0.1",
            0,
            new PrometheusRegistry(),
            new ResultStore(Clock.systemUTC()),
            null,
            Map::of,
            settings)) {
      HttpClient client = HttpClient.newHttpClient();
      URI uri = URI.create("http://127.0.0.1:" + api.port() + "/healthz");
      java.util.function.Supplier<String> frame =
          () -> {
            try {
              return client
                  .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                  .headers()
                  .firstValue("X-Frame-Options")
                  .orElse("");
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          };
      assertThat(frame.get()).isEqualTo("deny");
      Files.writeString(web, "http_server_config: {headers: {X-Frame-Options: allow-from}}\n");
      Thread.sleep(WebConfigWatcher.PERIOD_MILLIS + 500);
      assertThat(frame.get()).as("the bad file is not taken").isEqualTo("deny");
      Files.writeString(web, "http_server_config: {headers: {X-Frame-Options: sameorigin}}\n");
      long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!frame.get().equals("sameorigin") && System.nanoTime() < end) {
        Thread.sleep(100);
      }
      assertThat(frame.get()).isEqualTo("sameorigin");
    }
  }
}
