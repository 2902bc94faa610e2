package io.linkwatch.config;

import io.linkwatch.util.IoReasons;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The web config file, in the Prometheus exporter-toolkit format ({@code --web.config.file}): TLS,
 * bcrypt basic auth, extra response headers, HTTP/2 and a rate limit, validated by {@link
 * WebConfigLoader}. The empty config serves plain HTTP without auth.
 *
 * @param basicAuthUsers user name to bcrypt hash; empty means no authentication
 * @param headers added to every response
 * @param http2 offer HTTP/2 (ALPN {@code h2}) besides HTTP/1.1 over TLS; plain HTTP is HTTP/1.1
 * @param rateLimit empty: no limit
 */
public record WebConfig(
    Optional<Tls> tls,
    Map<String, String> basicAuthUsers,
    Map<String, String> headers,
    boolean http2,
    Optional<RateLimit> rateLimit) {
  public static final WebConfig NONE =
      new WebConfig(Optional.empty(), Map.of(), Map.of(), true, Optional.empty());

  public WebConfig {
    basicAuthUsers = Map.copyOf(basicAuthUsers);
    headers = Map.copyOf(headers);
  }

  /**
   * How clients must present certificates (exporter-toolkit's {@code client_auth_type}), with the
   * meaning of Go's {@code tls.ClientAuthType} of the same name.
   */
  public enum ClientAuth {
    /** No certificate is asked for. */
    NO_CLIENT_CERT("NoClientCert"),
    /** A certificate is asked for, not required, and not verified. */
    REQUEST_CLIENT_CERT("RequestClientCert"),
    /** A certificate is required, any certificate: it is not verified. */
    REQUIRE_ANY_CLIENT_CERT("RequireAnyClientCert"),
    /** A certificate is asked for; one that is given must verify. */
    VERIFY_CLIENT_CERT_IF_GIVEN("VerifyClientCertIfGiven"),
    /** A certificate is required and must verify. */
    REQUIRE_AND_VERIFY_CLIENT_CERT("RequireAndVerifyClientCert");

    private final String configName;

    ClientAuth(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }

    /** Whether a certificate is asked for at all. */
    public boolean requests() {
      return this != NO_CLIENT_CERT;
    }

    /** Whether a client without a certificate is refused. */
    public boolean requires() {
      return this == REQUIRE_ANY_CLIENT_CERT || this == REQUIRE_AND_VERIFY_CLIENT_CERT;
    }

    /** Whether a given certificate must chain to a client CA. */
    public boolean verifies() {
      return this == VERIFY_CLIENT_CERT_IF_GIVEN || this == REQUIRE_AND_VERIFY_CLIENT_CERT;
    }
  }

  /**
   * PEM text, from a file (re-read when the server (re)loads its TLS options) or inline in the web
   * config ({@code cert}, {@code key}, {@code client_ca}).
   *
   * @param file the file, or null for inline text
   * @param text the inline text, or null for a file
   */
  public record Pem(Path file, String text) {
    public static Pem file(Path file) {
      return new Pem(file, null);
    }

    public static Pem inline(String text) {
      return new Pem(null, text);
    }

    public Optional<Path> path() {
      return Optional.ofNullable(file);
    }

    /** The PEM bytes, reading the file when there is one. */
    public byte[] bytes() {
      if (file == null) {
        return text.getBytes(StandardCharsets.US_ASCII);
      }
      try {
        return Files.readAllBytes(file);
      } catch (IOException e) {
        throw new UncheckedIOException(file + ": cannot read: " + IoReasons.of(e), e);
      }
    }

    /** How messages name it: the file, or "inline PEM". */
    public String describe() {
      return file == null ? "inline PEM" : file.toString();
    }

    @Override
    public String toString() {
      return file == null ? "Pem[inline]" : "Pem[" + file + "]"; // never a key's text
    }
  }

  /**
   * @param cert the server's certificate chain
   * @param key its private key
   * @param clientCa the CAs a verified client certificate must chain to; empty with a verifying
   *     {@code clientAuth}: the JDK's trusted CAs (Go uses the system's)
   * @param clientAllowedSans when not empty, a client certificate must have one of these SANs (DNS
   *     name, e-mail, IP address or URI, written as Go writes them)
   * @param protocols the enabled protocols in JSSE names, e.g. {@code [TLSv1.2, TLSv1.3]}
   * @param cipherSuites JSSE names in the order the server prefers them; empty means the JDK's
   *     defaults
   * @param namedGroups JSSE names of the key exchange groups, e.g. {@code x25519}; empty means the
   *     JDK's defaults
   */
  public record Tls(
      Pem cert,
      Pem key,
      ClientAuth clientAuth,
      Optional<Pem> clientCa,
      List<String> clientAllowedSans,
      List<String> protocols,
      List<String> cipherSuites,
      List<String> namedGroups) {
    public Tls {
      clientAllowedSans = List.copyOf(clientAllowedSans);
      protocols = List.copyOf(protocols);
      cipherSuites = List.copyOf(cipherSuites);
      namedGroups = List.copyOf(namedGroups);
    }

    /** The files it reads (certificate, key, client CAs), for watching. */
    public List<Path> files() {
      List<Path> files = new ArrayList<>();
      cert.path().ifPresent(files::add);
      key.path().ifPresent(files::add);
      clientCa.flatMap(Pem::path).ifPresent(files::add);
      return files;
    }
  }

  /**
   * A token bucket over all requests (exporter-toolkit's {@code rate_limit}): one request per
   * {@code interval} on average, up to {@code burst} at once; a request over it is answered 429.
   *
   * @param burst at most 0: every request is answered 429, as in Go's {@code rate.Limiter}
   */
  public record RateLimit(Duration interval, int burst) {}
}
