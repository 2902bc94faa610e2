package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.linkwatch.config.WebConfig.ClientAuth;
import io.linkwatch.testing.Certs;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * invalid file maps to its exact message, naming the key; the valid ones read as they should.
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
          foo: 1 | foo: unknown key
          tls_server_config: [] | tls_server_config: must be a mapping of keys to values
          tls_server_config: {key_file: server-key.pem} | tls_server_config.cert_file: required: the server's certificate (PEM)
          tls_server_config: {cert_file: server.pem} | tls_server_config.key_file: required: the certificate's private key (PEM)
          tls_server_config: {cert_file: missing.pem, key_file: server-key.pem} | tls_server_config.cert_file: ${dir}/missing.pem: no such file
          tls_server_config: {cert_file: notes.txt, key_file: server-key.pem} | tls_server_config.cert_file: ${dir}/notes.txt: not a PEM certificate: No certificate data found
          tls_server_config: {cert_file: server.pem, key_file: missing-key.pem} | tls_server_config.key_file: ${dir}/missing-key.pem: no such file
          tls_server_config: {cert_file: server.pem, key_file: other-key.pem} | tls_server_config.key_file: ${dir}/other-key.pem: is not the key of the certificate in ${dir}/server.pem (CN=server)
          tls_server_config: {cert_file: server.pem, key_file: client-key.pem} | tls_server_config.key_file: ${dir}/client-key.pem: is not the key of the certificate in ${dir}/server.pem (CN=server)
          tls_server_config: {cert_file: server.pem, key_file: server.pem} | tls_server_config.key_file: ${dir}/server.pem: not a PEM private key (PKCS#8, RSA or EC): Missing -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY----- or -----BEGIN EC PRIVATE KEY----- delimiter
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: Maybe} | tls_server_config.client_auth_type: 'Maybe' is not a client_auth_type (NoClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: RequireAnyClientCert} | tls_server_config.client_auth_type: 'RequireAnyClientCert' is not supported: a certificate nobody verifies proves nothing (use VerifyClientCertIfGiven or RequireAndVerifyClientCert)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: RequireAndVerifyClientCert} | tls_server_config.client_ca_file: required with client_auth_type RequireAndVerifyClientCert: the CAs that sign client certificates
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_ca_file: ca.pem} | tls_server_config.client_ca_file: set, but client_auth_type is NoClientCert: no client certificate is asked for
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: VerifyClientCertIfGiven, client_ca_file: nope.pem} | tls_server_config.client_ca_file: ${dir}/nope.pem: no such file
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, client_auth_type: VerifyClientCertIfGiven, client_ca_file: notes.txt} | tls_server_config.client_ca_file: ${dir}/notes.txt: not a PEM certificate: No certificate data found
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, min_version: TLS14} | tls_server_config.min_version: 'TLS14' is not a TLS version (TLS12, TLS13)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, min_version: TLS11} | tls_server_config.min_version: 'TLS11' is disabled by the JDK as insecure (use TLS12 or TLS13)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, min_version: TLS13, max_version: TLS12} | tls_server_config.min_version: TLS13 is above max_version TLS12
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cipher_suites: [TLS_RSA_WITH_RC4_FAKE]} | tls_server_config.cipher_suites[0]: 'TLS_RSA_WITH_RC4_FAKE' is not a cipher suite this JDK supports
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cipher_suites: []} | tls_server_config.cipher_suites: must not be empty
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, curve_preferences: [P256]} | tls_server_config.curve_preferences[0]: 'P256' is not a curve (CurveP256, CurveP384, CurveP521, X25519)
          tls_server_config: {cert_file: server.pem, key_file: server-key.pem, cert: inline} | tls_server_config.cert: unknown key
          basic_auth_users: {prometheus: secret} | basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)
          basic_auth_users: {prometheus: '$1$abc$def'} | basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)
          basic_auth_users: [prometheus] | basic_auth_users: must be a mapping of keys to values
          http_server_config: {headers: {X-Powered-By: linkwatch}} | http_server_config.headers.X-Powered-By: cannot be set (Content-Security-Policy, Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection)
          http_server_config: {http2: true} | http_server_config.http2: linkwatch serves HTTP/1.1 only; leave it out or set it to false
          http_server_config: {h2: false} | http_server_config.h2: unknown key
          """)
  void anInvalidFileIsOneLineNamingTheKey(String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage("web.yml: " + message.replace("${dir}", dir.toString()));
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
  void aCompleteFileReadsAsGiven() {
    WebConfig c =
        parse(
            """
            tls_server_config:
              cert_file: server.pem
              key_file: server-key-rsa.pem
              client_auth_type: RequireAndVerifyClientCert
              client_ca_file: ca.pem
              min_version: TLS13
              curve_preferences: [X25519, CurveP256]
              prefer_server_cipher_suites: true
            http_server_config:
              http2: false
              headers:
                Strict-Transport-Security: max-age=31536000
            basic_auth_users:
              prometheus: '%s'
            """
                .formatted(HASH));
    assertThat(c.tls())
        .contains(
            new WebConfig.Tls(
                dir.resolve("server.pem"),
                dir.resolve("server-key-rsa.pem"),
                ClientAuth.REQUIRE_AND_VERIFY_CLIENT_CERT,
                Optional.of(dir.resolve("ca.pem")),
                List.of("TLSv1.3"),
                List.of(),
                List.of("x25519", "secp256r1")));
    assertThat(c.basicAuthUsers()).containsExactly(Map.entry("prometheus", HASH));
    assertThat(c.headers()).containsEntry("Strict-Transport-Security", "max-age=31536000");
    assertThat(parse("").tls()).isEmpty();
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
