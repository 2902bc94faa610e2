package io.linkwatch.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The web config file, in the Prometheus exporter-toolkit format ({@code --web.config.file}): TLS,
 * bcrypt basic auth and extra response headers, validated by {@link WebConfigLoader}. The empty
 * config serves plain HTTP without auth.
 *
 * @param basicAuthUsers user name to bcrypt hash; empty means no authentication
 * @param headers added to every response
 */
public record WebConfig(
    Optional<Tls> tls, Map<String, String> basicAuthUsers, Map<String, String> headers) {
  public static final WebConfig NONE = new WebConfig(Optional.empty(), Map.of(), Map.of());

  public WebConfig {
    basicAuthUsers = Map.copyOf(basicAuthUsers);
    headers = Map.copyOf(headers);
  }

  /** How clients must present certificates (exporter-toolkit's {@code client_auth_type}). */
  public enum ClientAuth {
    NO_CLIENT_CERT("NoClientCert"),
    VERIFY_CLIENT_CERT_IF_GIVEN("VerifyClientCertIfGiven"),
    REQUIRE_AND_VERIFY_CLIENT_CERT("RequireAndVerifyClientCert");

    private final String configName;

    ClientAuth(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }

    public boolean verifies() {
      return this != NO_CLIENT_CERT;
    }
  }

  /**
   * @param protocols the enabled protocols in JSSE names, e.g. {@code [TLSv1.2, TLSv1.3]}
   * @param cipherSuites empty means the JDK's defaults
   * @param namedGroups JSSE names of the key exchange groups, e.g. {@code x25519}; empty means the
   *     JDK's defaults
   */
  public record Tls(
      Path certFile,
      Path keyFile,
      ClientAuth clientAuth,
      Optional<Path> clientCaFile,
      List<String> protocols,
      List<String> cipherSuites,
      List<String> namedGroups) {
    public Tls {
      protocols = List.copyOf(protocols);
      cipherSuites = List.copyOf(cipherSuites);
      namedGroups = List.copyOf(namedGroups);
    }
  }
}
