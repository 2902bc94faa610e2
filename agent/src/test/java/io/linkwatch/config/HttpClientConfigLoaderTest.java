package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.testing.Certs;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --http.config.file} (Prometheus common HTTP client format) against real PEM files made by
 * openssl: each invalid file maps to its exact message, naming the key; valid ones read as they
 * should, secrets from files, relative names from the file's directory.
 */
class HttpClientConfigLoaderTest {
  @TempDir static Path dir;
  static Certs certs;
  static final URI HTTPS = URI.create("https://127.0.0.1:10187");

  @BeforeAll
  static void makeFiles() throws Exception {
    certs = Certs.make(dir);
    Files.writeString(dir.resolve("password"), "s3cret\n");
    Files.writeString(dir.resolve("token"), "  abc.def  \n");
    Files.writeString(dir.resolve("two-lines"), "one\ntwo\n");
    Files.writeString(dir.resolve("empty"), "\n");
  }

  static HttpClientConfig parse(String yaml, URI agent) {
    return HttpClientConfigLoader.parse("http.yml", yaml, dir, agent);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          foo: 1 | foo: unknown key (valid here: authorization, basic_auth, enable_http2, follow_redirects, tls_config)
          basic_auth: {username: prometheus, pasword_file: password} | basic_auth.password_file: required: the file holding the secret (or password with it inline)\\nhttp.yml: basic_auth.pasword_file: unknown key, did you mean 'password_file'? (valid here: password, password_file, username, username_file)
          basic_auth: {username: prometheus, password: a, password_file: password} | basic_auth.password: set as well as password_file: keep one of them
          basic_auth: {username: prometheus} | basic_auth.password_file: required: the file holding the secret (or password with it inline)
          basic_auth: {password_file: password} | basic_auth.username_file: required: the file holding the value (or username with it inline)
          basic_auth: {username: prometheus, password_file: missing} | basic_auth.password_file: ${dir}/missing: no such file
          basic_auth: {username: prometheus, password_file: empty} | basic_auth.password_file: is empty
          basic_auth: {username: prometheus, password_file: two-lines} | basic_auth.password_file: must be one line
          'authorization: {credentials: "abc\\u0001"}' | authorization.credentials: holds a control character
          basic_auth: {username: 'a:b', password_file: password} | basic_auth.username: must not contain ':' (basic auth joins user and password by it)
          basic_auth: {username: prometheus, password_ref: vault} | basic_auth.password_ref: not supported: there is no secret manager here; use the _file key\\nhttp.yml: basic_auth.password_file: required: the file holding the secret (or password with it inline)
          basic_auth: [prometheus] | basic_auth: must be a mapping of keys to values
          'basic_auth: {username: p, password: x}\nauthorization: {credentials: y}' | authorization: set as well as basic_auth: keep one of them
          authorization: {type: Basic, credentials: x} | authorization.type: 'Basic' is not allowed here: use basic_auth
          authorization: {type: Bearer} | authorization.credentials_file: required: the file holding the secret (or credentials with it inline)
          oauth2: {client_id: x} | oauth2: not supported here: use basic_auth or authorization
          proxy_url: http://proxy:3128 | proxy_url: not supported: status and check ask the agent directly, without a proxy
          bearer_token_file: token | bearer_token_file: not read here (deprecated in Prometheus): use authorization.credentials_file
          follow_redirects: true | follow_redirects: linkwatch follows no redirect (the agent sends none): remove it
          enable_http2: yes | enable_http2: must be true or false, not 'yes'
          tls_config: {ca_file: missing.pem} | tls_config.ca_file: ${dir}/missing.pem: no such file
          tls_config: {ca_file: password} | tls_config.ca_file: ${dir}/password: not a PEM certificate: No certificate data found
          tls_config: {ca_file: ca.pem, ca: inline} | tls_config.ca: set as well as ca_file: keep one of them
          tls_config: {cert_file: client.pem} | tls_config.key_file: required with a client certificate: its private key (or key)
          tls_config: {key_file: client-key.pem} | tls_config.cert_file: required with a private key: the client certificate (or cert)
          tls_config: {cert_file: client.pem, key_file: other-key.pem} | tls_config.key_file: ${dir}/other-key.pem: is not the key of the certificate in ${dir}/client.pem (CN=client)
          tls_config: {insecure_skip_verify: 1} | tls_config.insecure_skip_verify: must be true or false, not '1'
          tls_config: {min_version: TLS11} | tls_config.min_version: 'TLS11' is disabled in this JDK as insecure (jdk.tls.disabledAlgorithms in java.security): use TLS12 or TLS13
          tls_config: {min_version: TLS14} | tls_config.min_version: 'TLS14' is not a TLS version (TLS10, TLS11, TLS12, TLS13)
          tls_config: {ca_file: ca.pem, sever_name: x} | tls_config.sever_name: unknown key, did you mean 'server_name'? (valid here: ca, ca_file, cert, cert_file, insecure_skip_verify, key, key_file, max_version, min_version, server_name)
          tls_config: {server_name: agent.example} | tls_config.server_name: 'agent.example' is not the --url host '127.0.0.1', and the JDK's client checks the certificate against the URL's host only: use --url https://agent.example:10187 (a name that resolves to the agent)
          """)
  void eachInvalidFileNamesTheKey(String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml.replace("\\n", "\n"), HTTPS))
        .isInstanceOf(ConfigException.class)
        .hasMessage("http.yml: " + message.replace("${dir}", dir.toString()).replace("\\n", "\n"));
  }

  @Test
  void tlsConfigOnAPlainHttpUrlIsRefused() {
    assertThatThrownBy(
            () -> parse("tls_config: {ca_file: ca.pem}", URI.create("http://127.0.0.1:10187")))
        .hasMessage(
            "http.yml: tls_config: set, but http://127.0.0.1:10187 is plain HTTP: give an https://"
                + " URL (--url) to use it");
  }

  @Test
  void basicAuthFromAPasswordFileRelativeToTheConfig() {
    HttpClientConfig c =
        parse(
            """
            basic_auth: {username: prometheus, password_file: password}
            tls_config: {ca_file: ca.pem, cert_file: client.pem, key_file: client-key.pem}
            """,
            HTTPS);
    HttpClientConfig.Authorization a = c.authorization().orElseThrow();
    assertThat(a.header())
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("prometheus:s3cret".getBytes(StandardCharsets.UTF_8)));
    assertThat(c.tls().ca()).contains(WebConfig.Pem.file(dir.resolve("ca.pem")));
    assertThat(c.tls().cert()).contains(WebConfig.Pem.file(dir.resolve("client.pem")));
    assertThat(c.tls().protocols()).containsExactly("TLSv1.2", "TLSv1.3");
    assertThat(c.http2()).isTrue();
    // Nothing a log or message could print shows the secret.
    assertThat(c.toString()).doesNotContain("s3cret").doesNotContain(a.header().substring(6));
  }

  @Test
  void authorizationDefaultsToBearerAndTrimsTheFile() {
    HttpClientConfig c =
        parse("authorization: {credentials_file: token}\nenable_http2: false\n", HTTPS);
    assertThat(c.authorization().orElseThrow().header()).isEqualTo("Bearer abc.def");
    assertThat(c.http2()).isFalse();
    assertThat(c.tls().ca()).isEmpty();
  }

  @Test
  void theUrlsOwnHostAsServerNameAndTls13Only() {
    HttpClientConfig c =
        parse(
            "tls_config: {server_name: LOCALHOST, min_version: TLS13}",
            URI.create("https://localhost:10187"));
    assertThat(c.tls().serverName()).isEqualTo(Optional.of("LOCALHOST"));
    assertThat(c.tls().protocols()).isEqualTo(List.of("TLSv1.3"));
  }

  @Test
  void anEmptyFileIsTheDefaults() {
    HttpClientConfig c = parse("", HTTPS);
    assertThat(c.authorization()).isEmpty();
    assertThat(c.tls()).isEqualTo(HttpClientConfig.NONE.tls());
  }
}
