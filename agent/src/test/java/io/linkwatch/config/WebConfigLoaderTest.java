package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.linkwatch.config.WebConfig.ClientAuth;
import io.linkwatch.testing.Certs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The web config file (exporter-toolkit format) against real PEM files made by openssl: each
 * invalid file maps to its exact message, naming the key; the valid ones read as they should, with
 * the exporter-toolkit's defaults.
 */
class WebConfigLoaderTest {
  @TempDir static Path dir;
  static Certs certs;
  static final String HASH = BCrypt.withDefaults().hashToString(10, "secret".toCharArray());

  @BeforeAll
  static void makeCerts() throws Exception {
    certs = Certs.make(dir);
    Files.writeString(dir.resolve("notes.txt"), "not a certificate\n");
    Certs.openssl(
        dir, "rsa", "-in", "server-key.pem", "-traditional", "-out", "server-key-rsa.pem");
  }

  static WebConfig parse(String yaml) {
    return WebConfigLoader.parse("web.yml", yaml, dir);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          foo: 1 | foo: unknown key (valid here: basic_auth_users, http_server_config, rate_limit, tls_server_config)
          tls_server_config: [] | tls_server_config: must be a mapping of keys to values
          tls_server_config: {key_file: server-key.pem} | tls_server_config.cert_file: required: the server's certificate (PEM), or cert with it inline
          tls_server_config: {cert_file: server.pem} | tls_server_config.key_file: required: the certificate's private key (PEM), or key with it inline
          tls_server_config: {cert_file: '', key: '', client_auth_type: NoClientCert} | tls_server_config.cert_file: required: the server's certificate (PEM), or cert with it inline\\nweb.yml: tls_server_config.key_file: required: the certificate's private key (PEM), or key with it inline
          tls_server_config: {cert_file: missing.pem, key_file: server-key.pem} | tls_server_config.cert_file: ${dir}/missing.pem: no such file
          tls_server_config: {cert_file: notes.txt, key_file: server-key.pem} | tls_server_config.cert_file: ${dir}/notes.txt: not a PEM certificate: No certificate data found
          tls_server_config: {cert: 'not a certificate', key_file: server-key.pem} | tls_server_config.cert: inline PEM: not a PEM certificate: No certificate data found
          tls_server_config: {cert_file: server.pem, key_file: missing-key.pem} | tls_server_config.key_file: ${dir}/missing-key.pem: no such file
          tls_server_config: {cert_file: server.pem, key_file: other-key.pem} | tls_server_config.key_file: ${dir}/other-key.pem: is not the key of the certificate in ${dir}/server.pem (CN=server)
          tls_server_config: {cert_file: server.pem, key_file: client-key.pem} | tls_server_config.key_file: ${dir}/client-key.pem: is not the key of the certificate in ${dir}/server.pem (CN=server)
          tls_server_config: {cert_file: server.pem, key_file: server.pem} | tls_server_config.key_file: ${dir}/server.pem: not a PEM private key (PKCS#8, RSA or EC): Missing -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY----- or -----BEGIN EC PRIVATE KEY----- delimiter
          tls_server_config: {cert_file: server.pem, key: 'no key'} | tls_server_config.key: inline PEM: not a PEM private key (PKCS#8, RSA or EC): Missing -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY----- or -----BEGIN EC PRIVATE KEY----- delimiter
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: Maybe} | tls_server_config.client_auth_type: 'Maybe' is not a client_auth_type (NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_ca_file: ca.pem} | tls_server_config.client_ca_file: set, but client_auth_type is NoClientCert: no client certificate is asked for
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: NoClientCert, client_ca: inline} | tls_server_config.client_ca: set, but client_auth_type is NoClientCert: no client certificate is asked for\\nweb.yml: tls_server_config.client_ca: inline PEM: not a PEM certificate: No certificate data found
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_allowed_sans: [a]} | tls_server_config.client_allowed_sans: set, but client_auth_type is NoClientCert: no client certificate is asked for
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: RequestClientCert, client_allowed_sans: []} | tls_server_config.client_allowed_sans: must not be empty
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: VerifyClientCertIfGiven, client_ca_file: nope.pem} | tls_server_config.client_ca_file: ${dir}/nope.pem: no such file
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: VerifyClientCertIfGiven, client_ca_file: notes.txt} | tls_server_config.client_ca_file: ${dir}/notes.txt: not a PEM certificate: No certificate data found
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, min_version: TLS14} | tls_server_config.min_version: 'TLS14' is not a TLS version (TLS10, TLS11, TLS12, TLS13)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, min_version: TLS11} | tls_server_config.min_version: 'TLS11' is disabled in this JDK as insecure (jdk.tls.disabledAlgorithms in java.security): use TLS12 or TLS13
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, min_version: TLS13, max_version: TLS12} | tls_server_config.min_version: TLS13 is above max_version TLS12
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cipher_suites: [TLS_RSA_WITH_RC4_FAKE]} | tls_server_config.cipher_suites[0]: 'TLS_RSA_WITH_RC4_FAKE' is not a cipher suite of Go's tls.CipherSuites(), the names the exporter-toolkit takes (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cipher_suites: [TLS_DHE_RSA_WITH_AES_128_GCM_SHA256]} | tls_server_config.cipher_suites[0]: 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256' is not a cipher suite of Go's tls.CipherSuites(), the names the exporter-toolkit takes (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cipher_suites: [TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384]} | tls_server_config.cipher_suites: HTTP/2 (http_server_config.http2, on by default) needs TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 or TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 below TLS 1.3: add one, or set http2: false
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, curve_preferences: [P256]} | tls_server_config.curve_preferences[0]: 'P256' is not a curve (CurveP256, CurveP384, CurveP521, X25519)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cert_filse: x} | tls_server_config.cert_filse: unknown key, did you mean 'cert_file'? (valid here: cert, cert_file, cipher_suites, client_allowed_sans, client_auth_type, client_ca, client_ca_file, curve_preferences, key, key_file, max_version, min_version, prefer_server_cipher_suites)
          basic_auth_users: {prometheus: secret} | basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)
          basic_auth_users: {prometheus: '$1$abc$def'} | basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)
          basic_auth_users: [prometheus] | basic_auth_users: must be a mapping of keys to values
          http_server_config: {headers: {X-Powered-By: linkwatch}} | http_server_config.headers.X-Powered-By: cannot be set (Content-Security-Policy, Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection)
          http_server_config: {headers: {x-frame-options: deny}} | http_server_config.headers.x-frame-options: cannot be set (Content-Security-Policy, Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection)
          http_server_config: {headers: {X-Frame-Options: allow-from}} | http_server_config.headers.X-Frame-Options: 'allow-from' is not allowed (deny, sameorigin)
          http_server_config: {headers: {X-Frame-Options: DENY}} | http_server_config.headers.X-Frame-Options: 'DENY' is not allowed (deny, sameorigin)
          http_server_config: {headers: {X-Content-Type-Options: sniff}} | http_server_config.headers.X-Content-Type-Options: 'sniff' is not allowed (nosniff)
          http_server_config: {http2: maybe} | http_server_config.http2: must be true or false, not 'maybe'
          http_server_config: {h2: false} | http_server_config.h2: unknown key (valid here: headers, http2)
          rate_limit: {interval: 1 second} | rate_limit.interval: '1 second' is not a duration (e.g. 1s, 500ms, 1m30s; 0 turns the limit off)
          rate_limit: {interval: 1s, burst: many} | rate_limit.burst: must be a whole number, not 'many'
          rate_limit: {interval: 1s, bursts: 2} | rate_limit.bursts: unknown key, did you mean 'burst'? (valid here: burst, interval)
          """)
  void anInvalidFileIsOneLineNamingTheKey(String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage("web.yml: " + message.replace("${dir}", dir.toString()).replace("\\n", "\n"));
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(
            () ->
                parse(
                    """
                    tls_server_config: {cert_file: server.pem, key_file: other-key.pem, min_version: TLS9}
                    basic_auth_users: {a: b}
                    """))
        .hasMessageContaining("tls_server_config.min_version: 'TLS9'")
        .hasMessageContaining(
            "tls_server_config.key_file: " + dir + "/other-key.pem: is not the key")
        .hasMessageContaining("basic_auth_users.a: not a bcrypt hash");
  }

  @Test
  void aCompleteFileReadsAsGiven() throws Exception {
    WebConfig c =
        parse(
            """
            tls_server_config:
              cert_file: server.pem
              key_file: server-key-rsa.pem
              client_auth_type: RequireAndVerifyClientCert
              client_ca_file: ca.pem
              client_allowed_sans: [scraper.example, 10.0.0.1]
              min_version: TLS12
              max_version: TLS13
              cipher_suites:
                - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384
                - TLS_AES_128_GCM_SHA256
                - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
              curve_preferences: [X25519, CurveP256]
              prefer_server_cipher_suites: false
            http_server_config:
              http2: false
              headers:
                Strict-Transport-Security: max-age=31536000
                X-Frame-Options: sameorigin
                X-Content-Type-Options: nosniff
                X-XSS-Protection: ''
            basic_auth_users:
              prometheus: '%s'
            rate_limit:
              interval: 1m30s
              burst: 20
            """
                .formatted(HASH));
    // Go's server order, whatever the file's; TLS 1.3 suites are the JDK's, as in Go.
    assertThat(c.tls())
        .contains(
            new WebConfig.Tls(
                WebConfig.Pem.file(dir.resolve("server.pem")),
                WebConfig.Pem.file(dir.resolve("server-key-rsa.pem")),
                ClientAuth.REQUIRE_AND_VERIFY_CLIENT_CERT,
                Optional.of(WebConfig.Pem.file(dir.resolve("ca.pem"))),
                List.of("scraper.example", "10.0.0.1"),
                List.of("TLSv1.2", "TLSv1.3"),
                List.of(
                    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                    "TLS_AES_256_GCM_SHA384",
                    "TLS_AES_128_GCM_SHA256",
                    "TLS_CHACHA20_POLY1305_SHA256"),
                List.of("x25519", "secp256r1")));
    assertThat(c.basicAuthUsers()).containsExactly(Map.entry("prometheus", HASH));
    // A blank header is not sent ("unset if blank").
    assertThat(c.headers())
        .containsOnly(
            Map.entry("Strict-Transport-Security", "max-age=31536000"),
            Map.entry("X-Frame-Options", "sameorigin"),
            Map.entry("X-Content-Type-Options", "nosniff"));
    assertThat(c.http2()).isFalse();
    assertThat(c.rateLimit()).contains(new WebConfig.RateLimit(Duration.ofSeconds(90), 20));

    WebConfig empty = parse("");
    assertThat(empty.tls()).isEmpty();
    assertThat(empty.http2()).isTrue();
    assertThat(empty.rateLimit()).isEmpty();
  }

  @Test
  void inlinePemAndTheOtherClientAuthTypesRead() throws Exception {
    String cert = Files.readString(certs.serverCert).indent(4);
    String key = Files.readString(certs.serverKey).indent(4);
    WebConfig c =
        parse(
            "tls_server_config:\n  cert: |\n"
                + cert
                + "  key: |\n"
                + key
                + "  client_auth_type: RequireClientCert\n");
    WebConfig.Tls tls = c.tls().orElseThrow();
    assertThat(tls.cert().path()).isEmpty();
    assertThat(new String(tls.cert().bytes(), java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo(Files.readString(certs.serverCert));
    assertThat(tls.clientAuth()).isEqualTo(ClientAuth.REQUIRE_ANY_CLIENT_CERT);
    assertThat(tls.files()).isEmpty();
    assertThat(tls.key().toString()).isEqualTo("Pem[inline]"); // never the key in a log line
    // A named file wins over inline text, as in the exporter-toolkit.
    WebConfig both =
        parse(
            "tls_server_config:\n  cert_file: server.pem\n  cert: junk\n  key_file:"
                + " server-key.pem\n");
    assertThat(both.tls().orElseThrow().cert().path()).contains(dir.resolve("server.pem"));
    // Verifying without client_ca_file: the JDK's trusted CAs, as Go takes the system's.
    WebConfig verify =
        parse(
            "tls_server_config: {cert_file: server.pem, key_file: server-key.pem,"
                + " client_auth_type: VerifyClientCertIfGiven}\n");
    assertThat(verify.tls().orElseThrow().clientCa()).isEmpty();
    // Only TLS-enabling keys turn TLS on; the rest alone leaves plain HTTP, as in Go.
    assertThat(parse("tls_server_config: {min_version: TLS13}\n").tls()).isEmpty();
    // A cipher list without an HTTP/2 suite is fine with http2 off, or with TLS 1.3 only.
    String noH2 =
        "tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cipher_suites:"
            + " [TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384]%s}\n%s";
    assertThat(parse(noH2.formatted("", "http_server_config: {http2: false}\n")).tls()).isPresent();
    assertThat(parse(noH2.formatted(", min_version: TLS13", "")).tls()).isPresent();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0 | PT0S
          1s | PT1S
          1m30s | PT1M30S
          1.5h | PT1H30M
          500ms | PT0.5S
          100us | PT0.0001S
          100µs | PT0.0001S
          2h45m3.5s | PT2H45M3.5S
          1000000000 | PT1S
          -1s | PT-1S
          """)
  void rateLimitIntervalsReadAsGoReadsThem(String text, Duration expected) {
    assertThat(WebConfigLoader.goDuration(text)).isEqualTo(expected);
  }

  @Test
  void theMainConfigNamesTheWebConfigAndItsLimits() throws Exception {
    Path web = dir.resolve("web.yml");
    Files.writeString(web, "basic_auth_users: {prometheus: '" + HASH + "'}\n");
    AgentConfig c =
        ConfigLoader.parse(
            "l.yaml",
            "web: {config_file: " + web + ", request_timeout: 3s, max_connections: 50}\n");
    assertThat(c.web().configFile()).contains(web);
    assertThat(c.web().config().basicAuthUsers()).containsKey("prometheus");
    assertThat(c.web().requestTimeout()).hasSeconds(3);
    assertThat(c.web().maxConnections()).isEqualTo(50);

    assertThatThrownBy(() -> ConfigLoader.parse("l.yaml", "web: {config_file: web.yml}\n"))
        .hasMessage("l.yaml: web.config_file: 'web.yml' must be an absolute path");
    assertThatThrownBy(() -> ConfigLoader.parse("l.yaml", "web: {request_timeout: 0s}\n"))
        .hasMessage("l.yaml: web.request_timeout: '0s' is not a duration: it must be above 0");
    assertThatThrownBy(() -> ConfigLoader.parse("l.yaml", "web: {max_connections: 0}\n"))
        .hasMessage("l.yaml: web.max_connections: must be between 1 and 1000000, not 0");
    Files.writeString(web, "basic_auth_users: {prometheus: plain}\n");
    assertThatThrownBy(() -> ConfigLoader.parse("l.yaml", "web: {config_file: " + web + "}\n"))
        .hasMessage(
            web
                + ": basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd"
                + " -nbBC 10 USER PASSWORD)");
  }
}
