package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The exporter-toolkit's own example web config files (its {@code web/testdata} and the sample of
 * its documentation, under {@code src/test/resources/exporter-toolkit-testdata}, see the NOTICE
 * there), each loaded as linkwatch loads a web config, and accepted or refused as the Go exporters
 * do. The expected Go outcome of each file is taken from the exporter-toolkit's {@code
 * tls_config_test.go} (its {@code TestYAMLFiles}, {@code TestServerBehaviour}, {@code
 * TestConfigReloading} and {@code TestUsers}), or, for a file no test there uses, from reading
 * {@code tls_config.go}. A file where linkwatch differs must be listed in {@link #DIFFERENCES} with
 * the reason.
 */
class ExporterToolkitTestdataTest {
  enum Go {
    /** Go loads it and serves (perhaps refusing some clients, as the note says). */
    SERVES,
    /** Go refuses it: the exporter does not start (and its config check fails). */
    REFUSES,
    /**
     * Go's config check ({@code web.Validate}) passes but serving fails at start ({@code
     * ListenAndServe} returns the error).
     */
    REFUSES_AT_SERVE
  }

  record Expected(Go go, String why) {}

  /** Every file of the fixture directory, with what the exporter-toolkit does with it. */
  static final Map<String, Expected> GO = new LinkedHashMap<>();

  static {
    go("docs_web-config.yml", Go.SERVES, "the documentation's sample: TLS, users, rate_limit");
    go("tls_config_noAuth.requireandverifyclientcert.good.yml", Go.SERVES, "TestServerBehaviour");
    go("tls_config_noAuth.requireanyclientcert.good.yml", Go.SERVES, "TestServerBehaviour");
    go(
        "tls_config_noAuth.requireanyclientcertkeyinline.good.yml",
        Go.SERVES,
        "no test loads it (the 'key inline' case names the file without key); cert_file + inline"
            + " key, RequireAnyClientCert: tls_config.go loads it");
    go("web_config_auth_clientCAs_invalid.bad.yml", Go.REFUSES, "TestYAMLFiles: no such file");
    go(
        "web_config_auth_clientCAs_missing.bad.yml",
        Go.SERVES,
        "no test loads it; tls_config.go loads RequireAndVerifyClientCert without client_ca_file"
            + " and verifies against the system CAs (as web_config_noAuth.good.blocking.yml)");
    go(
        "web_config_auth_client_san.bad.yaml",
        Go.SERVES,
        "TestServerBehaviour: served, and client2_selfsigned is refused (SAN test3 not allowed)");
    go("web_config_auth_client_san.good.yaml", Go.SERVES, "TestServerBehaviour");
    go("web_config_auth_user_list_invalid.bad.yml", Go.REFUSES, "TestYAMLFiles: Bad password");
    go("web_config_empty.yml", Go.SERVES, "TestYAMLFiles");
    go("web_config_headers.good.yml", Go.SERVES, "TestServerBehaviour");
    go(
        "web_config_headers_content_type_options.bad.yml",
        Go.REFUSES,
        "TestServerBehaviour: invalid value");
    go(
        "web_config_headers_extra_header.bad.yml",
        Go.REFUSES,
        "TestServerBehaviour: header can not be configured");
    go("web_config_headers_frame_options.bad.yml", Go.REFUSES, "TestServerBehaviour");
    go("web_config_junk.yml", Go.REFUSES, "TestYAMLFiles: YAML error");
    go("web_config_junk_key.yml", Go.REFUSES, "TestYAMLFiles: YAML error (unknown key)");
    go("web_config_noAuth.bad.yml", Go.REFUSES, "TestYAMLFiles: client CA without policy");
    go(
        "web_config_noAuth.good.blocking.yml",
        Go.SERVES,
        "TestConfigReloading: served, and a client without a system-CA certificate is refused");
    go("web_config_noAuth.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_allCiphers.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_allCurves.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_certPath_empty.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_certPath_invalid.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_certPath_keyPath_empty.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_certPath_keyPath_invalid.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_cert_empty.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_inventedCiphers.bad.yml", Go.REFUSES, "TestYAMLFiles: unknown cipher");
    go("web_config_noAuth_inventedCurves.bad.yml", Go.REFUSES, "TestYAMLFiles: unknown curve");
    go("web_config_noAuth_keyPath_empty.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_keyPath_invalid.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_key_empty.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_noAuth_noHTTP2.good.yml", Go.SERVES, "TestServerBehaviour");
    go(
        "web_config_noAuth_noHTTP2Cipher.bad.yml",
        Go.REFUSES_AT_SERVE,
        "TestServerBehaviour: http2 is missing an HTTP/2-required cipher");
    go("web_config_noAuth_someCiphers.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_someCiphers_noOrder.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_someCurves.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_tlsInline.good.yml", Go.SERVES, "TestServerBehaviour");
    go("web_config_noAuth_wrongTLSVersion.bad.yml", Go.REFUSES, "TestYAMLFiles");
    go("web_config_rate_limiter_nonblocking.yaml", Go.SERVES, "TestServerBehaviour");
    go(
        "web_config_rate_limiter_one_second.yaml",
        Go.SERVES,
        "TestServerBehaviour: served, every request answered 429 (burst 0)");
    go("web_config_users.good.yml", Go.SERVES, "TestUsers");
    go("web_config_users_noTLS.good.yml", Go.SERVES, "TestUsers");
  }

  /**
   * Files linkwatch accepts or refuses otherwise than Go, with the reason. Refusing at load what Go
   * refuses only when it starts serving is not a difference: neither serves it, and linkwatch's
   * {@code check-config} says so earlier.
   */
  static final Map<String, String> DIFFERENCES = Map.of();

  private static void go(String file, Go outcome, String why) {
    GO.put(file, new Expected(outcome, why));
  }

  static Path fixtures() throws URISyntaxException {
    return Path.of(
            ExporterToolkitTestdataTest.class
                .getResource("/exporter-toolkit-testdata/NOTICE")
                .toURI())
        .getParent();
  }

  @Test
  void everyExampleFileIsAcceptedOrRefusedAsTheGoExportersDo() throws Exception {
    Path dir = fixtures();
    List<String> files;
    try (Stream<Path> s = Files.list(dir)) {
      files =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".yml") || n.endsWith(".yaml"))
              .sorted()
              .toList();
    }
    assertThat(GO.keySet())
        .as("every example file has its Go outcome")
        .containsExactlyInAnyOrderElementsOf(files);

    Map<String, String> differs = new LinkedHashMap<>();
    StringBuilder report = new StringBuilder();
    for (var e : GO.entrySet()) {
      String outcome;
      try {
        WebConfigLoader.load(dir.resolve(e.getKey()));
        outcome = "accepted";
      } catch (ConfigException ex) {
        outcome = "refused: " + ex.getMessage().replace(dir + "/", "");
      }
      boolean goServes = e.getValue().go() == Go.SERVES;
      report
          .append(e.getKey())
          .append(": Go ")
          .append(e.getValue().go())
          .append(", linkwatch ")
          .append(outcome)
          .append('\n');
      if (goServes != outcome.equals("accepted")) {
        differs.put(
            e.getKey(), outcome + " (Go: " + e.getValue().go() + ", " + e.getValue().why() + ")");
      }
    }
    assertThat(differs).as(report.toString()).containsOnlyKeys(DIFFERENCES.keySet());
  }

  /** The refusals name the key and the reason, as the exporter-toolkit's errors do. */
  @Test
  void theRefusalsNameTheKeyAndTheReason() throws Exception {
    Path dir = fixtures();
    Map<String, String> expected =
        Map.ofEntries(
            Map.entry(
                "web_config_auth_clientCAs_invalid.bad.yml",
                "tls_server_config.client_ca_file: set, but client_auth_type is NoClientCert"),
            Map.entry(
                "web_config_auth_user_list_invalid.bad.yml",
                "basic_auth_users.john: not a bcrypt hash"),
            Map.entry(
                "web_config_headers_content_type_options.bad.yml",
                "http_server_config.headers.X-Content-Type-Options: 'sniff' is not allowed"
                    + " (nosniff)"),
            Map.entry(
                "web_config_headers_extra_header.bad.yml",
                "http_server_config.headers.Content-Type: cannot be set"),
            Map.entry(
                "web_config_headers_frame_options.bad.yml",
                "http_server_config.headers.X-Frame-Options: 'foo' is not allowed (deny,"
                    + " sameorigin)"),
            Map.entry("web_config_junk.yml", "the file must be a mapping of keys to values"),
            Map.entry(
                "web_config_junk_key.yml",
                "tls_server_config.cert_filse: unknown key, did you mean 'cert_file'? (valid here: cert, cert_file, cipher_suites, client_allowed_sans, client_auth_type, client_ca, client_ca_file, curve_preferences, key, key_file, max_version, min_version, prefer_server_cipher_suites)"),
            Map.entry(
                "web_config_noAuth.bad.yml",
                "tls_server_config.client_ca_file: set, but client_auth_type is NoClientCert"),
            Map.entry(
                "web_config_noAuth_certPath_empty.bad.yml",
                "tls_server_config.cert_file: required"),
            Map.entry(
                "web_config_noAuth_certPath_invalid.bad.yml",
                "tls_server_config.cert_file: " + dir + "/somefile: no such file"),
            Map.entry(
                "web_config_noAuth_certPath_keyPath_empty.bad.yml",
                "tls_server_config.client_auth_type: 'x' is not a client_auth_type"),
            Map.entry(
                "web_config_noAuth_certPath_keyPath_invalid.bad.yml",
                "tls_server_config.cert_file: " + dir + "/somefile: no such file"),
            Map.entry(
                "web_config_noAuth_cert_empty.bad.yml", "tls_server_config.cert_file: required"),
            Map.entry(
                "web_config_noAuth_inventedCiphers.bad.yml",
                "tls_server_config.cipher_suites[0]: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA2048' is"
                    + " not a cipher suite of Go's tls.CipherSuites()"),
            Map.entry(
                "web_config_noAuth_inventedCurves.bad.yml",
                "tls_server_config.curve_preferences[0]: 'CurveP257' is not a curve"),
            Map.entry(
                "web_config_noAuth_keyPath_empty.bad.yml", "tls_server_config.key_file: required"),
            Map.entry(
                "web_config_noAuth_keyPath_invalid.bad.yml",
                "tls_server_config.cert_file: " + dir + "/server.cert: no such file"),
            Map.entry(
                "web_config_noAuth_key_empty.bad.yml", "tls_server_config.key_file: required"),
            Map.entry(
                "web_config_noAuth_noHTTP2Cipher.bad.yml",
                "tls_server_config.cipher_suites: HTTP/2 (http_server_config.http2, on by default)"
                    + " needs TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 or"
                    + " TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 below TLS 1.3"),
            Map.entry(
                "web_config_noAuth_wrongTLSVersion.bad.yml",
                "tls_server_config.min_version: 'TLS111' is not a TLS version"));
    assertThat(expected.keySet())
        .containsExactlyInAnyOrderElementsOf(
            GO.entrySet().stream()
                .filter(e -> e.getValue().go() != Go.SERVES)
                .map(Map.Entry::getKey)
                .toList());
    for (var e : expected.entrySet()) {
      Path file = dir.resolve(e.getKey());
      try {
        WebConfigLoader.load(file);
        throw new AssertionError(e.getKey() + " was accepted");
      } catch (ConfigException ex) {
        assertThat(ex.getMessage()).as(e.getKey()).contains(file + ": " + e.getValue());
      }
    }
  }

  /** linkwatch check-config fails (exit 2) on a web config the exporter-toolkit refuses. */
  @Test
  void checkConfigExitsTwoOnARefusedWebConfig(@org.junit.jupiter.api.io.TempDir Path tmp)
      throws Exception {
    Path dir = fixtures();
    Path main = tmp.resolve("linkwatch.yaml");
    for (var file :
        List.of("web_config_headers_frame_options.bad.yml", "web_config_headers.good.yml")) {
      Files.writeString(main, "web: {config_file: " + dir.resolve(file) + "}\n");
      java.io.StringWriter out = new java.io.StringWriter();
      java.io.StringWriter err = new java.io.StringWriter();
      int exit =
          io.linkwatch.cli.Main.execute(
              new java.io.PrintWriter(out),
              new java.io.PrintWriter(err),
              "check-config",
              main.toString());
      if (file.contains(".bad.")) {
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
            .isEqualTo(
                "linkwatch: "
                    + dir.resolve(file)
                    + ": http_server_config.headers.X-Frame-Options: 'foo' is not allowed (deny,"
                    + " sameorigin)\n");
      } else {
        assertThat(exit).as(err.toString()).isZero();
      }
    }
  }

  @Test
  void theServedFilesReadAsGoReadsThem() throws Exception {
    Path dir = fixtures();
    WebConfig inline = WebConfigLoader.load(dir.resolve("web_config_noAuth_tlsInline.good.yml"));
    assertThat(inline.tls().orElseThrow().files()).isEmpty();
    WebConfig docs = WebConfigLoader.load(dir.resolve("docs_web-config.yml"));
    assertThat(docs.rateLimit())
        .contains(new WebConfig.RateLimit(java.time.Duration.ofSeconds(1), 20));
    assertThat(docs.basicAuthUsers()).containsOnlyKeys("alice", "bob");
    assertThat(
            WebConfigLoader.load(dir.resolve("web_config_rate_limiter_nonblocking.yaml"))
                .rateLimit())
        .isEmpty();
    assertThat(
            WebConfigLoader.load(dir.resolve("web_config_auth_client_san.good.yaml"))
                .tls()
                .orElseThrow()
                .clientAllowedSans())
        .containsExactly("one", "test3", "two");
    assertThat(
            WebConfigLoader.load(dir.resolve("tls_config_noAuth.requireanyclientcert.good.yml"))
                .tls()
                .orElseThrow()
                .clientAuth())
        .isEqualTo(WebConfig.ClientAuth.REQUIRE_ANY_CLIENT_CERT);
  }
}
