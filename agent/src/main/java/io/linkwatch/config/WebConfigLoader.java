package io.linkwatch.config;

import io.linkwatch.config.WebConfig.ClientAuth;
import io.linkwatch.config.WebConfig.Tls;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Reads the web config file in the Prometheus exporter-toolkit format, as strictly as the main
 * config: unknown keys, missing or unreadable files, a key that is not the certificate's, a TLS
 * version, cipher suite or curve this JDK cannot serve, and a password hash that is not bcrypt are
 * each one line naming the key, all reported together, e.g.
 *
 * <pre>
 * /etc/linkwatch/web.yml: tls_server_config.min_version: 'TLS14' is not a TLS version (TLS12, TLS13)
 * /etc/linkwatch/web.yml: basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)
 * </pre>
 *
 * Relative file names are taken from the web config file's directory, as the exporter-toolkit does.
 */
public final class WebConfigLoader {
  private static final Pattern BCRYPT =
      Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

  /** The response headers the exporter-toolkit lets a web config set. */
  private static final List<String> HEADERS =
      List.of(
          "Content-Security-Policy",
          "Strict-Transport-Security",
          "X-Content-Type-Options",
          "X-Frame-Options",
          "X-XSS-Protection");

  private static final Map<String, String> VERSIONS =
      Map.of("TLS12", "TLSv1.2", "TLS13", "TLSv1.3");

  /** Go's curve names, as the exporter-toolkit takes them, to JSSE's named groups. */
  private static final Map<String, String> CURVES =
      Map.of(
          "X25519", "x25519",
          "CurveP256", "secp256r1",
          "CurveP384", "secp384r1",
          "CurveP521", "secp521r1");

  private WebConfigLoader() {}

  public static WebConfig load(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    return parse(file.toString(), ConfigLoader.readFile(file), dir);
  }

  /** Validates {@code text}; relative paths are taken from {@code dir}. */
  public static WebConfig parse(String source, String text, Path dir) {
    return ConfigLoader.parseYaml(source, text, (root, problems) -> read(root, dir));
  }

  private static WebConfig read(ConfigNode root, Path dir) {
    Optional<Tls> tls = Optional.empty();
    if (root.hasMapping("tls_server_config")) {
      tls = readTls(root.mapping("tls_server_config"), dir);
    } else if (root.has("tls_server_config")) {
      root.mapping("tls_server_config"); // reports that it must be a mapping
    }

    ConfigNode http = root.mapping("http_server_config");
    if (http.bool("http2", false)) {
      http.problem("http2", "linkwatch serves HTTP/1.1 only; leave it out or set it to false");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    ConfigNode headerNode = http.mapping("headers");
    for (String name : headerNode.keys()) {
      if (!HEADERS.contains(name)) {
        headerNode.problem(name, "cannot be set (" + String.join(", ", HEADERS) + ")");
        headerNode.scalar(name, null, s -> s);
        continue;
      }
      String value = headerNode.scalar(name, null, WebConfigLoader::headerValue);
      if (value != null) {
        headers.put(name, value);
      }
    }
    http.rejectUnknown();

    Map<String, String> users = new LinkedHashMap<>();
    ConfigNode userNode = root.mapping("basic_auth_users");
    for (String user : userNode.keys()) {
      if (user.contains(":") || user.isEmpty()) {
        userNode.problem(user, "a user name must not be empty or contain ':'");
        userNode.scalar(user, null, s -> s);
        continue;
      }
      String hash = userNode.scalar(user, null, WebConfigLoader::bcryptHash);
      if (hash != null) {
        users.put(user, hash);
      }
    }
    root.rejectUnknown();
    return new WebConfig(tls, users, headers);
  }

  private static Optional<Tls> readTls(ConfigNode node, Path dir) {
    Path cert = node.scalar("cert_file", null, s -> dir.resolve(s));
    Path key = node.scalar("key_file", null, s -> dir.resolve(s));
    if (cert == null && !node.has("cert_file")) {
      node.problem("cert_file", "required: the server's certificate (PEM)");
    }
    if (key == null && !node.has("key_file")) {
      node.problem("key_file", "required: the certificate's private key (PEM)");
    }
    ClientAuth clientAuth =
        node.scalar("client_auth_type", ClientAuth.NO_CLIENT_CERT, WebConfigLoader::clientAuth);
    Path ca = node.scalar("client_ca_file", null, s -> dir.resolve(s));
    if (clientAuth.verifies() && ca == null && !node.has("client_ca_file")) {
      node.problem(
          "client_ca_file",
          "required with client_auth_type "
              + clientAuth.configName()
              + ": the CAs that sign client certificates");
    } else if (!clientAuth.verifies() && ca != null) {
      node.problem(
          "client_ca_file",
          "set, but client_auth_type is NoClientCert: no client certificate is asked for");
      ca = null;
    }
    String min = node.scalar("min_version", "TLS12", WebConfigLoader::tlsVersion);
    String max = node.scalar("max_version", "TLS13", WebConfigLoader::tlsVersion);
    if (min.compareTo(max) > 0) {
      node.problem("min_version", min + " is above max_version " + max);
    }
    List<String> protocols =
        VERSIONS.keySet().stream()
            .sorted()
            .filter(v -> v.compareTo(min) >= 0 && v.compareTo(max) <= 0)
            .map(VERSIONS::get)
            .toList();
    Set<String> supported = supportedCipherSuites();
    List<String> ciphers =
        node.list("cipher_suites", List.of(), s -> cipherSuite(s, supported), false);
    List<String> groups = node.list("curve_preferences", List.of(), WebConfigLoader::curve, false);
    node.bool("prefer_server_cipher_suites", true); // JSSE servers prefer their own order anyway
    node.rejectUnknown();

    if (cert != null
        && check(node, "cert_file", () -> TlsFiles.certificates(cert))
        && key != null) {
      check(node, "key_file", () -> TlsFiles.checkKeyPair(cert, key));
    }
    if (ca != null) {
      Path caFile = ca;
      check(node, "client_ca_file", () -> TlsFiles.certificates(caFile));
    }
    if (cert == null || key == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Tls(cert, key, clientAuth, Optional.ofNullable(ca), protocols, ciphers, groups));
  }

  /** Runs a file check; its failure is a problem under {@code key}. */
  private static boolean check(ConfigNode node, String key, Runnable check) {
    try {
      check.run();
      return true;
    } catch (IllegalArgumentException e) {
      node.problem(key, e.getMessage());
      return false;
    }
  }

  private static ClientAuth clientAuth(String text) {
    for (ClientAuth a : ClientAuth.values()) {
      if (a.configName().equals(text)) {
        return a;
      }
    }
    if (text.equals("RequestClientCert") || text.equals("RequireAnyClientCert")) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not supported: a certificate nobody verifies proves nothing (use"
              + " VerifyClientCertIfGiven or RequireAndVerifyClientCert)");
    }
    throw new IllegalArgumentException(
        "'"
            + text
            + "' is not a client_auth_type (NoClientCert, VerifyClientCertIfGiven,"
            + " RequireAndVerifyClientCert)");
  }

  private static String tlsVersion(String text) {
    if (VERSIONS.containsKey(text)) {
      return text;
    }
    if (text.equals("TLS10") || text.equals("TLS11")) {
      throw new IllegalArgumentException(
          "'" + text + "' is disabled by the JDK as insecure (use TLS12 or TLS13)");
    }
    throw new IllegalArgumentException("'" + text + "' is not a TLS version (TLS12, TLS13)");
  }

  private static Set<String> supportedCipherSuites() {
    try {
      return Set.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no default TLS context", e);
    }
  }

  private static String cipherSuite(String text, Set<String> supported) {
    if (!supported.contains(text)) {
      throw new IllegalArgumentException("'" + text + "' is not a cipher suite this JDK supports");
    }
    return text;
  }

  private static String curve(String text) {
    String group = CURVES.get(text);
    if (group == null) {
      List<String> names = new ArrayList<>(CURVES.keySet());
      names.sort(null);
      throw new IllegalArgumentException(
          "'" + text + "' is not a curve (" + String.join(", ", names) + ")");
    }
    return group;
  }

  private static String bcryptHash(String text) {
    if (!BCRYPT.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)");
    }
    return text;
  }

  private static String headerValue(String text) {
    if (text.chars().anyMatch(c -> c == '\r' || c == '\n')) {
      throw new IllegalArgumentException("a header value must be one line");
    }
    return text;
  }
}
