package io.linkwatch.config;

import io.linkwatch.config.WebConfig.Pem;
import java.util.List;
import java.util.Optional;

/**
 * How {@code status} and {@code check} talk to an agent behind its web config ({@code
 * --http.config.file}, in the Prometheus common HTTP client format that promtool reads): a login
 * and TLS settings, validated by {@link HttpClientConfigLoader}. {@link #NONE} is the JDK's
 * defaults: no login, the JDK's trusted CAs.
 *
 * @param source the file it was read from, for messages
 * @param authorization the {@code Authorization} header to send, if any
 * @param tls the TLS settings; used on https URLs only
 * @param http2 offer HTTP/2 ({@code enable_http2})
 */
public record HttpClientConfig(
    String source, Optional<Authorization> authorization, Tls tls, boolean http2) {
  public static final HttpClientConfig NONE =
      new HttpClientConfig("(none)", Optional.empty(), Tls.NONE, true);

  /**
   * An {@code Authorization} header. Its {@code toString} never shows the value: it holds a
   * password or token.
   *
   * @param key where it came from, {@code basic_auth} or {@code authorization}
   * @param header the header's value, e.g. {@code Basic cHJvbWV0aGV1czpzZWNyZXQ=}
   * @param who what messages may say of it, e.g. {@code user 'prometheus'}
   */
  public record Authorization(String key, String header, String who) {
    @Override
    public String toString() {
      return "Authorization[" + key + ", " + who + "]";
    }
  }

  /**
   * The {@code tls_config} of a client.
   *
   * @param ca the CAs the agent's certificate must chain to; empty: the JDK's trusted CAs
   * @param cert the client certificate to present, with {@code key}
   * @param serverName the name the agent's certificate must carry, when given; it must be the URL's
   *     host (see {@link HttpClientConfigLoader})
   * @param insecureSkipVerify accept any certificate for any name
   * @param protocols JSSE names, e.g. {@code [TLSv1.2, TLSv1.3]}
   */
  public record Tls(
      Optional<Pem> ca,
      Optional<Pem> cert,
      Optional<Pem> key,
      Optional<String> serverName,
      boolean insecureSkipVerify,
      List<String> protocols) {
    public static final Tls NONE =
        new Tls(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            false,
            List.of("TLSv1.2", "TLSv1.3"));

    public Tls {
      protocols = List.copyOf(protocols);
    }
  }
}
