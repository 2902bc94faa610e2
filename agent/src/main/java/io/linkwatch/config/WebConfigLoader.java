package io.linkwatch.config;

import io.linkwatch.config.WebConfig.ClientAuth;
import io.linkwatch.config.WebConfig.Pem;
import io.linkwatch.config.WebConfig.RateLimit;
import io.linkwatch.config.WebConfig.Tls;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the web config file in the Prometheus exporter-toolkit format, key for key, and refuses
 * what the exporter-toolkit refuses (plus what the JDK cannot serve), as strictly as the main
 * config: unknown keys, missing or unreadable files, a key that is not the certificate's, a TLS
 * version, cipher suite or curve that Go does not name or this JDK cannot serve, a header value the
 * exporter-toolkit does not allow and a password hash that is not bcrypt are each one line naming
 * the key, all reported together, e.g.
 *
 * <pre>
 * /etc/linkwatch/web.yml: tls_server_config.min_version: 'TLS14' is not a TLS version (TLS10, TLS11, TLS12, TLS13)
 * /etc/linkwatch/web.yml: basic_auth_users.prometheus: not a bcrypt hash (make one with htpasswd -nbBC 10 USER PASSWORD)
 * </pre>
 *
 * As in the exporter-toolkit, TLS is on when any of {@code cert}, {@code cert_file}, {@code key},
 * {@code key_file}, {@code client_ca}, {@code client_ca_file} or {@code client_auth_type} is set
 * (an empty string is unset); a file named as well as given inline is read from the file; relative
 * file names are taken from the web config file's directory.
 */
public final class WebConfigLoader {
  private static final Pattern BCRYPT =
      Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

  /**
   * The response headers the exporter-toolkit lets a web config set, each with the values it allows
   * (empty: any value).
   */
  private static final Map<String, List<String>> HEADERS =
      Map.of(
          "Content-Security-Policy", List.of(),
          "Strict-Transport-Security", List.of(),
          "X-Content-Type-Options", List.of("nosniff"),
          "X-Frame-Options", List.of("deny", "sameorigin"),
          "X-XSS-Protection", List.of());

  /** Go's curve names, as the exporter-toolkit takes them, to JSSE's named groups. */
  private static final Map<String, String> CURVES =
      Map.of(
          "X25519", "x25519",
          "CurveP256", "secp256r1",
          "CurveP384", "secp384r1",
          "CurveP521", "secp521r1");

  /**
   * The TLS 1.0-1.2 cipher suites of Go's {@code tls.CipherSuites()} (the only names the
   * exporter-toolkit takes), in the order Go's server prefers them: Go ignores the order of {@code
   * cipher_suites}, so linkwatch does too. Go and JSSE spell them the same (the IANA names).
   */
  static final List<String> GO_CIPHER_SUITES =
      List.of(
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
          "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
          "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
          "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
          "TLS_RSA_WITH_AES_128_GCM_SHA256",
          "TLS_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_RSA_WITH_AES_128_CBC_SHA",
          "TLS_RSA_WITH_AES_256_CBC_SHA");

  /**
   * Go's TLS 1.3 suites: accepted in {@code cipher_suites} and without effect, as in Go, where TLS
   * 1.3 suites cannot be chosen; the JDK's TLS 1.3 suites stay enabled.
   */
  static final List<String> TLS13_CIPHER_SUITES =
      List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256");

  /** One of these must be enabled for HTTP/2 below TLS 1.3 (Go's http2 refuses to serve else). */
  private static final List<String> HTTP2_REQUIRED =
      List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");

  private static final Pattern GO_DURATION_PART =
      Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)");

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
    ConfigNode http = root.mapping("http_server_config");
    boolean http2 = http.bool("http2", true);
    Map<String, String> headers = new LinkedHashMap<>();
    ConfigNode headerNode = http.mapping("headers");
    for (String name : headerNode.keys()) {
      List<String> allowed = HEADERS.get(name);
      if (allowed == null) {
        List<String> names = new ArrayList<>(HEADERS.keySet());
        names.sort(null);
        headerNode.problem(name, "cannot be set (" + String.join(", ", names) + ")");
        headerNode.scalar(name, null, s -> s);
        continue;
      }
      String value = headerNode.scalar(name, "", v -> headerValue(v, allowed));
      if (!value.isEmpty()) {
        headers.put(name, value);
      }
    }
    http.rejectUnknown();

    Optional<Tls> tls = readTls(root.mapping("tls_server_config"), dir, http2);

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

    ConfigNode rate = root.mapping("rate_limit");
    Duration interval = rate.scalar("interval", Duration.ZERO, WebConfigLoader::goDuration);
    int burst = rate.integer("burst", 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
    rate.rejectUnknown();
    Optional<RateLimit> rateLimit =
        interval.isNegative() || interval.isZero()
            ? Optional.empty()
            : Optional.of(new RateLimit(interval, burst));

    root.rejectUnknown();
    return new WebConfig(tls, users, headers, http2, rateLimit);
  }

  /** A string value; empty (or null, or absent) reads as unset, as Go's zero value. */
  private static String text(ConfigNode node, String key) {
    if (!node.has(key)) {
      return "";
    }
    return node.scalar(key, "", s -> s);
  }

  private static Optional<Tls> readTls(ConfigNode node, Path dir, boolean http2) {
    String cert = text(node, "cert");
    String certFile = text(node, "cert_file");
    String key = text(node, "key");
    String keyFile = text(node, "key_file");
    String clientCa = text(node, "client_ca");
    String clientCaFile = text(node, "client_ca_file");
    String clientAuthText = text(node, "client_auth_type");
    ClientAuth clientAuth =
        clientAuthText.isEmpty()
            ? ClientAuth.NO_CLIENT_CERT
            : node.scalar("client_auth_type", null, WebConfigLoader::clientAuth);
    List<String> sans =
        node.has("client_allowed_sans")
            ? node.list("client_allowed_sans", List.of(), s -> s, false)
            : List.of();

    String min = node.scalar("min_version", "TLS12", TlsVersions::parse);
    String max = node.scalar("max_version", "TLS13", TlsVersions::parse);
    List<String> goCiphers =
        node.list("cipher_suites", List.of(), WebConfigLoader::cipherSuite, true);
    List<String> groups = node.list("curve_preferences", List.of(), WebConfigLoader::curve, true);
    // Without effect in Go since 1.17 (its server always uses its own order); JSSE too uses the
    // server's order, which is Go's (see GO_CIPHER_SUITES).
    node.bool("prefer_server_cipher_suites", true);
    node.rejectUnknown();

    boolean enabled =
        !(cert + certFile + key + keyFile + clientCa + clientCaFile + clientAuthText).isEmpty();
    if (!enabled) {
      return Optional.empty(); // as Go: plain HTTP, whatever else the section says
    }

    Pem certPem = pem(certFile, cert, dir);
    Pem keyPem = pem(keyFile, key, dir);
    Pem caPem = pem(clientCaFile, clientCa, dir);
    if (certPem == null) {
      node.problem("cert_file", "required: the server's certificate (PEM), or cert with it inline");
    }
    if (keyPem == null) {
      node.problem(
          "key_file", "required: the certificate's private key (PEM), or key with it inline");
    }
    String caKey = clientCaFile.isEmpty() ? "client_ca" : "client_ca_file";
    if (clientAuth != null && !clientAuth.requests() && caPem != null) {
      node.problem(
          caKey, "set, but client_auth_type is NoClientCert: no client certificate is asked for");
    }
    if (clientAuth != null && !clientAuth.requests() && !sans.isEmpty()) {
      node.problem(
          "client_allowed_sans",
          "set, but client_auth_type is NoClientCert: no client certificate is asked for");
    }

    List<String> protocols = TlsVersions.protocols(node, min, max);
    List<String> ciphers = cipherSuites(goCiphers);
    if (http2
        && !goCiphers.isEmpty()
        && min.compareTo("TLS13") < 0
        && goCiphers.stream().noneMatch(HTTP2_REQUIRED::contains)) {
      node.problem(
          "cipher_suites",
          "HTTP/2 (http_server_config.http2, on by default) needs "
              + String.join(" or ", HTTP2_REQUIRED)
              + " below TLS 1.3: add one, or set http2: false");
    }

    if (certPem != null
        && TlsFiles.holdsCertificates(node, certFile.isEmpty() ? "cert" : "cert_file", certPem)
        && keyPem != null) {
      try {
        TlsFiles.checkKeyPair(certPem, keyPem);
      } catch (IllegalArgumentException e) {
        node.problem(keyFile.isEmpty() ? "key" : "key_file", e.getMessage());
      }
    }
    if (caPem != null) {
      TlsFiles.holdsCertificates(node, caKey, caPem);
    }
    if (certPem == null || keyPem == null || clientAuth == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Tls(
            certPem,
            keyPem,
            clientAuth,
            Optional.ofNullable(caPem),
            sans,
            protocols,
            ciphers,
            groups));
  }

  /** The file when named (relative to {@code dir}), else the inline text, else null. */
  private static Pem pem(String file, String inline, Path dir) {
    if (!file.isEmpty()) {
      return Pem.file(dir.resolve(file));
    }
    return inline.isEmpty() ? null : Pem.inline(inline);
  }

  private static ClientAuth clientAuth(String text) {
    if (text.equals("RequireClientCert")) { // the exporter-toolkit's old name, still taken
      return ClientAuth.REQUIRE_ANY_CLIENT_CERT;
    }
    List<String> names = new ArrayList<>();
    for (ClientAuth a : ClientAuth.values()) {
      if (a.configName().equals(text)) {
        return a;
      }
      names.add(a.configName());
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a client_auth_type (" + String.join(", ", names) + ")");
  }

  private static String cipherSuite(String text) {
    if (!GO_CIPHER_SUITES.contains(text) && !TLS13_CIPHER_SUITES.contains(text)) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a cipher suite of Go's tls.CipherSuites(), the names the"
              + " exporter-toolkit takes (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)");
    }
    if (!List.of(TlsVersions.jdkDefaults().getCipherSuites()).contains(text)) {
      throw new IllegalArgumentException(
          "'" + text + "' is disabled in this JDK (jdk.tls.disabledAlgorithms in java.security)");
    }
    return text;
  }

  /**
   * The suites to enable: the TLS 1.0-1.2 ones given, in Go's order, then the JDK's TLS 1.3 suites
   * (Go's TLS 1.3 suites cannot be configured); none given: the JDK's defaults.
   */
  private static List<String> cipherSuites(List<String> given) {
    if (given.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>(given.stream().distinct().toList());
    out.removeIf(TLS13_CIPHER_SUITES::contains);
    out.sort(Comparator.comparingInt(GO_CIPHER_SUITES::indexOf));
    for (String s : TlsVersions.jdkDefaults().getCipherSuites()) {
      if (TLS13_CIPHER_SUITES.contains(s)) {
        out.add(s);
      }
    }
    return out;
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

  private static String headerValue(String text, List<String> allowed) {
    if (!allowed.isEmpty() && !allowed.contains(text)) {
      throw new IllegalArgumentException(
          "'" + text + "' is not allowed (" + String.join(", ", allowed) + ")");
    }
    if (text.chars().anyMatch(c -> c == '\r' || c == '\n')) {
      throw new IllegalArgumentException("a header value must be one line");
    }
    return text;
  }

  /**
   * A duration as Go's {@code time.ParseDuration} reads it ({@code 1s}, {@code 1m30s}, {@code
   * 1.5h}, {@code 500ms}, {@code 100us}); a bare whole number is nanoseconds, as when Go's YAML
   * reads a number into a duration ({@code 0} turns the limit off).
   */
  static Duration goDuration(String text) {
    String t = text.strip();
    if (t.matches("[-+]?[0-9]+")) {
      return Duration.ofNanos(Long.parseLong(t));
    }
    boolean negative = t.startsWith("-");
    String rest = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = GO_DURATION_PART.matcher(rest);
    BigDecimal nanos = BigDecimal.ZERO;
    int at = 0;
    while (at < rest.length() && m.find(at) && m.start() == at) {
      String number = m.group(1);
      if (number.isEmpty() || number.equals(".")) {
        break;
      }
      long unit =
          switch (m.group(2)) {
            case "ns" -> 1L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 1_000L; // us, µs, μs
          };
      nanos = nanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(unit)));
      at = m.end();
    }
    if (at != rest.length() || rest.isEmpty()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (e.g. 1s, 500ms, 1m30s; 0 turns the limit off)");
    }
    long n = nanos.longValue();
    return Duration.ofNanos(negative ? -n : n);
  }
}
