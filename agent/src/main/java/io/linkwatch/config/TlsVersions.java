package io.linkwatch.config;

import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * TLS versions as the Prometheus configs name them ({@code min_version: TLS12}, Go's names) and as
 * JSSE enables them ({@code TLSv1.2}): one list for the agent's web config and for the client
 * config of {@code status} and {@code check}.
 */
final class TlsVersions {
  /** Go's TLS version names with JSSE's; the names sort lowest first. */
  private static final Map<String, String> VERSIONS =
      Map.of("TLS10", "TLSv1", "TLS11", "TLSv1.1", "TLS12", "TLSv1.2", "TLS13", "TLSv1.3");

  private TlsVersions() {}

  /** A version name as written in a config, checked. */
  static String parse(String text) {
    if (VERSIONS.containsKey(text)) {
      return text;
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a TLS version (TLS10, TLS11, TLS12, TLS13)");
  }

  /**
   * The JSSE protocols from {@code min} to {@code max}, problems reported on {@code node}'s {@code
   * min_version} and {@code max_version}. One this JDK has disabled (TLS 1.0 and 1.1 in {@code
   * jdk.tls.disabledAlgorithms}, by default) is refused rather than silently left out.
   */
  static List<String> protocols(ConfigNode node, String min, String max) {
    if (min.compareTo(max) > 0) {
      node.problem("min_version", min + " is above max_version " + max);
      return List.of();
    }
    Set<String> enabled = Set.of(jdkDefaults().getProtocols());
    for (String key : List.of("min_version", "max_version")) {
      String v = key.equals("min_version") ? min : max;
      if (!enabled.contains(VERSIONS.get(v))) {
        node.problem(
            key,
            "'"
                + v
                + "' is disabled in this JDK as insecure (jdk.tls.disabledAlgorithms in"
                + " java.security): use TLS12 or TLS13");
        return List.of();
      }
    }
    return VERSIONS.keySet().stream()
        .sorted()
        .filter(v -> v.compareTo(min) >= 0 && v.compareTo(max) <= 0)
        .map(VERSIONS::get)
        .toList();
  }

  /** What this JDK enables by default (protocols, cipher suites). */
  static SSLParameters jdkDefaults() {
    try {
      return SSLContext.getDefault().getDefaultSSLParameters();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no default TLS context", e);
    }
  }
}
