package io.linkwatch.config;

import io.linkwatch.config.HttpClientConfig.Authorization;
import io.linkwatch.config.WebConfig.Pem;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code --http.config.file}: the Prometheus common HTTP client config (what promtool reads),
 * as far as the JDK's HTTP client can honour it, as strictly as the agent's own configs: an unknown
 * key, a wrong type, a missing file, a key that is not the certificate's, and a key of the format
 * that linkwatch cannot honour are each one line naming the key, e.g.
 *
 * <pre>
 * /etc/linkwatch/http.yml: basic_auth.pasword_file: unknown key, did you mean 'password_file'? (valid here: password, password_file, username, username_file)
 * /etc/linkwatch/http.yml: tls_config.server_name: 'agent.example' is not the --url host '127.0.0.1' ...
 * </pre>
 *
 * Read: {@code basic_auth} ({@code username} or {@code username_file}, {@code password} or {@code
 * password_file}), {@code authorization} ({@code type}, default Bearer; {@code credentials} or
 * {@code credentials_file}), {@code tls_config} ({@code ca}/{@code ca_file}, {@code cert}/{@code
 * cert_file}, {@code key}/{@code key_file}, {@code server_name}, {@code insecure_skip_verify},
 * {@code min_version}, {@code max_version}), {@code enable_http2}, {@code follow_redirects: false}.
 * Secrets read from files are trimmed of surrounding white space, as Prometheus does; relative file
 * names are taken from the config file's directory.
 */
public final class HttpClientConfigLoader {
  /** Keys of the format that are refused, each with what to do instead. */
  private static final Map<String, String> REFUSED_TOP =
      Map.of(
          "oauth2", "not supported here: use basic_auth or authorization",
          "bearer_token", "not read here (deprecated in Prometheus): use authorization.credentials",
          "bearer_token_file",
              "not read here (deprecated in Prometheus): use authorization.credentials_file",
          "proxy_url", "not supported: status and check ask the agent directly, without a proxy",
          "no_proxy", "not supported: status and check ask the agent directly, without a proxy",
          "proxy_from_environment",
              "not supported: status and check ask the agent directly, without a proxy",
          "proxy_connect_header",
              "not supported: status and check ask the agent directly, without a proxy",
          "http_headers", "not supported: the agent needs no header but the login");

  private static final String NO_SECRET_MANAGER =
      "not supported: there is no secret manager here; use the _file key";

  private HttpClientConfigLoader() {}

  /**
   * Reads {@code file} for asking the agent at {@code agent}.
   *
   * @throws ConfigException with every problem, one line each naming the key
   */
  public static HttpClientConfig load(Path file, URI agent) {
    Path dir = file.toAbsolutePath().getParent();
    return parse(file.toString(), ConfigLoader.readFile(file), dir, agent);
  }

  /**
   * Reads {@code file} for asking every peer ({@code peers.collective.http_config_file}): a {@code
   * tls_config} makes the requests https, each peer's certificate checked against its own member
   * host, so {@code server_name} has no one name to be.
   *
   * @throws ConfigException with every problem, one line each naming the key
   */
  public static HttpClientConfig loadForPeers(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    return ConfigLoader.parseYaml(
        file.toString(),
        ConfigLoader.readFile(file),
        (root, problems) -> read(file.toString(), root, dir, null));
  }

  /** Validates {@code text}; relative paths are taken from {@code dir}. */
  public static HttpClientConfig parse(String source, String text, Path dir, URI agent) {
    return ConfigLoader.parseYaml(source, text, (root, problems) -> read(source, root, dir, agent));
  }

  private static HttpClientConfig read(String source, ConfigNode root, Path dir, URI agent) {
    List<String> given = root.keys();
    REFUSED_TOP.forEach(
        (key, why) -> {
          // Looked at only when given, so that "valid here" lists only the keys that are read.
          if (given.contains(key) && root.has(key)) {
            root.problem(key, why);
          }
        });
    if (root.bool("follow_redirects", false)) {
      root.problem(
          "follow_redirects", "linkwatch follows no redirect (the agent sends none): remove it");
    }
    boolean http2 = root.bool("enable_http2", true);
    Optional<Authorization> basic = section(root, "basic_auth").flatMap(n -> basicAuth(n, dir));
    Optional<Authorization> bearer =
        section(root, "authorization").flatMap(n -> authorization(n, dir));
    if (root.has("basic_auth") && root.has("authorization")) {
      root.problem("authorization", "set as well as basic_auth: keep one of them");
    }
    HttpClientConfig.Tls tls = HttpClientConfig.Tls.NONE;
    if (root.has("tls_config")) {
      tls = tls(root.mapping("tls_config"), dir, agent);
      if (agent != null && !"https".equals(agent.getScheme())) {
        root.problem(
            "tls_config",
            "set, but " + agent + " is plain HTTP: give an https:// URL (--url) to use it");
      }
    }
    root.rejectUnknown();
    return new HttpClientConfig(source, basic.or(() -> bearer), tls, http2);
  }

  /** The mapping under {@code key}: empty when absent, or when not a mapping (reported). */
  private static Optional<ConfigNode> section(ConfigNode root, String key) {
    if (!root.has(key)) {
      return Optional.empty();
    }
    ConfigNode node = root.mapping(key);
    return root.hasMapping(key) ? Optional.of(node) : Optional.empty();
  }

  private static Optional<Authorization> basicAuth(ConfigNode node, Path dir) {
    refuseRefs(node, "username_ref", "password_ref");
    Optional<String> user = oneOf(node, "username", "username_file", dir, false);
    Optional<String> password = oneOf(node, "password", "password_file", dir, true);
    node.rejectUnknown();
    if (user.isPresent() && user.get().contains(":")) {
      node.problem("username", "must not contain ':' (basic auth joins user and password by it)");
      return Optional.empty();
    }
    if (user.isEmpty() || password.isEmpty()) {
      return Optional.empty();
    }
    String pair = user.get() + ":" + password.get();
    return Optional.of(
        new Authorization(
            "basic_auth",
            "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)),
            "user '" + user.get() + "'"));
  }

  private static Optional<Authorization> authorization(ConfigNode node, Path dir) {
    refuseRefs(node, "credentials_ref");
    String type = node.scalar("type", "Bearer", HttpClientConfigLoader::authType);
    Optional<String> credentials = oneOf(node, "credentials", "credentials_file", dir, true);
    node.rejectUnknown();
    return credentials.map(c -> new Authorization("authorization", type + " " + c, "type " + type));
  }

  private static String authType(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("basic")) {
      throw new IllegalArgumentException("'" + text + "' is not allowed here: use basic_auth");
    }
    if (t.isEmpty() || !t.chars().allMatch(c -> c > ' ' && c < 127)) {
      throw new IllegalArgumentException(
          "'" + text + "' is not an authorization type (e.g. Bearer)");
    }
    return t;
  }

  /**
   * A value given either inline under {@code key} or in the file under {@code fileKey}: exactly one
   * of them; a file's text is trimmed. Empty when missing or wrong (reported).
   */
  private static Optional<String> oneOf(
      ConfigNode node, String key, String fileKey, Path dir, boolean secret) {
    boolean inline = node.has(key);
    boolean file = node.has(fileKey);
    if (inline && file) {
      node.problem(key, "set as well as " + fileKey + ": keep one of them");
      return Optional.empty();
    }
    if (!inline && !file) {
      node.problem(
          fileKey,
          "required: the file holding the "
              + (secret ? "secret" : "value")
              + " (or "
              + key
              + " with it inline)");
      return Optional.empty();
    }
    String value;
    if (inline) {
      value = node.scalar(key, null, s -> s);
    } else {
      Path path = node.scalar(fileKey, null, s -> dir.resolve(s));
      value = path == null ? null : readSecret(node, fileKey, path);
    }
    if (value == null) {
      return Optional.empty();
    }
    if (value.isEmpty()) {
      node.problem(inline ? key : fileKey, "is empty");
      return Optional.empty();
    }
    if (value.chars().anyMatch(c -> c == '\r' || c == '\n')) {
      // A header value must be one line; never show the secret itself.
      node.problem(inline ? key : fileKey, "must be one line");
      return Optional.empty();
    }
    if (value.chars().anyMatch(c -> c < ' ' && c != '\t' || c == 0x7f)) {
      // The JDK's client would refuse the header with a message that may quote it: refuse here.
      node.problem(inline ? key : fileKey, "holds a control character");
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private static String readSecret(ConfigNode node, String key, Path path) {
    try {
      return new String(TlsFiles.read(path), StandardCharsets.UTF_8).strip();
    } catch (IllegalArgumentException e) {
      node.problem(key, e.getMessage());
      return null;
    }
  }

  private static void refuseRefs(ConfigNode node, String... keys) {
    List<String> given = node.keys();
    for (String key : keys) {
      if (given.contains(key) && node.has(key)) {
        node.problem(key, NO_SECRET_MANAGER);
      }
    }
  }

  private static HttpClientConfig.Tls tls(ConfigNode node, Path dir, URI agent) {
    refuseRefs(node, "ca_ref", "cert_ref", "key_ref");
    Optional<Pem> ca = pem(node, "ca", "ca_file", dir);
    Optional<Pem> cert = pem(node, "cert", "cert_file", dir);
    Optional<Pem> key = pem(node, "key", "key_file", dir);
    Optional<String> serverName =
        Optional.ofNullable(node.scalar("server_name", null, s -> s)).filter(s -> !s.isEmpty());
    boolean insecure = node.bool("insecure_skip_verify", false);
    String min = node.scalar("min_version", "TLS12", TlsVersions::parse);
    String max = node.scalar("max_version", "TLS13", TlsVersions::parse);
    node.rejectUnknown();
    List<String> protocols = TlsVersions.protocols(node, min, max);

    ca.ifPresent(p -> TlsFiles.holdsCertificates(node, node.has("ca_file") ? "ca_file" : "ca", p));
    if (cert.isPresent() && key.isEmpty()) {
      node.problem("key_file", "required with a client certificate: its private key (or key)");
    } else if (key.isPresent() && cert.isEmpty()) {
      node.problem("cert_file", "required with a private key: the client certificate (or cert)");
    } else if (cert.isPresent()
        && TlsFiles.holdsCertificates(
            node, node.has("cert_file") ? "cert_file" : "cert", cert.get())) {
      try {
        TlsFiles.checkKeyPair(cert.get(), key.get());
      } catch (IllegalArgumentException e) {
        node.problem(node.has("key_file") ? "key_file" : "key", e.getMessage());
      }
    }
    if (agent == null) {
      serverName.ifPresent(
          n ->
              node.problem(
                  "server_name",
                  "not for peers: each peer's certificate is checked against its own member host"
                      + " (use names the certificates hold in the member list)"));
      return new HttpClientConfig.Tls(ca, cert, key, Optional.empty(), insecure, protocols);
    }
    String host = agent.getHost() == null ? "" : agent.getHost().replaceAll("^\\[|\\]$", "");
    if (serverName.isPresent() && !serverName.get().equalsIgnoreCase(host)) {
      String port = agent.getPort() < 0 ? "" : ":" + agent.getPort();
      node.problem(
          "server_name",
          "'"
              + serverName.get()
              + "' is not the --url host '"
              + host
              + "', and the JDK's client checks the certificate against the URL's host only: use"
              + " --url https://"
              + serverName.get()
              + port
              + " (a name that resolves to the agent)");
    }
    return new HttpClientConfig.Tls(ca, cert, key, serverName, insecure, protocols);
  }

  /** PEM inline under {@code key} or in the file under {@code fileKey}: at most one of them. */
  private static Optional<Pem> pem(ConfigNode node, String key, String fileKey, Path dir) {
    String inline = node.scalar(key, "", s -> s);
    String file = node.scalar(fileKey, "", s -> s);
    if (!inline.isEmpty() && !file.isEmpty()) {
      node.problem(key, "set as well as " + fileKey + ": keep one of them");
      return Optional.empty();
    }
    if (!file.isEmpty()) {
      return Optional.of(Pem.file(dir.resolve(file)));
    }
    return inline.isEmpty() ? Optional.empty() : Optional.of(Pem.inline(inline));
  }
}
