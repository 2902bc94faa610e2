package io.linkwatch.http;

import io.linkwatch.config.TlsFiles;
import io.linkwatch.config.WebConfig;
import io.linkwatch.config.WebConfig.Tls;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import io.vertx.core.net.TrustOptions;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The web config's {@code tls_server_config} as Vert.x server TLS options, with the
 * exporter-toolkit's (Go's) meaning of each {@code client_auth_type}:
 *
 * <pre>
 * NoClientCert                no certificate asked for
 * RequestClientCert           asked for, not required, not verified
 * RequireAnyClientCert        required, not verified
 * VerifyClientCertIfGiven     asked for, not required; one given must chain to the client CAs
 * RequireAndVerifyClientCert  required and must chain to the client CAs
 * </pre>
 *
 * The client CAs are {@code client_ca_file} (or {@code client_ca}), else the JDK's trusted CAs (Go
 * takes the system's). With {@code client_allowed_sans}, a client certificate must also carry one
 * of those SANs, and a client without one is refused (in the exporter-toolkit such a connection
 * ends in a panic of its SAN check, which closes it too).
 */
final class ServerTls {
  private ServerTls() {}

  static ServerSSLOptions sslOptions(Tls tls, boolean http2) {
    ServerSSLOptions o =
        new ServerSSLOptions()
            .setKeyCertOptions(
                new PemKeyCertOptions()
                    .setCertValue(Buffer.buffer(tls.cert().bytes()))
                    .setKeyValue(Buffer.buffer(tls.key().bytes())))
            .setClientAuth(clientAuth(tls))
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(tls.protocols()))
            .setUseAlpn(http2);
    if (http2) {
      o.setApplicationLayerProtocols(List.of("h2", "http/1.1"));
    }
    if (tls.clientAuth().requests()) {
      o.setTrustOptions(TrustOptions.wrap(trustManager(tls)));
    }
    tls.cipherSuites().forEach(o::addEnabledCipherSuite);
    return o;
  }

  /** Turns TLS on in {@code options} with {@link #sslOptions}. */
  static void enable(HttpServerOptions options, Tls tls, boolean http2) {
    ServerSSLOptions ssl = sslOptions(tls, http2);
    options
        .setSsl(true)
        .setKeyCertOptions(ssl.getKeyCertOptions())
        .setClientAuth(ssl.getClientAuth())
        .setEnabledSecureTransportProtocols(ssl.getEnabledSecureTransportProtocols())
        .setUseAlpn(http2);
    if (http2) {
      options.setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1));
    }
    if (ssl.getTrustOptions() != null) {
      options.setTrustOptions(ssl.getTrustOptions());
    }
    ssl.getEnabledCipherSuites().forEach(options::addEnabledCipherSuite);
    if (!tls.namedGroups().isEmpty()) {
      // JSSE takes key exchange groups from this property only (no per-engine API in Java 17);
      // it is read when TLS is first set up, which is here: the agent has no other TLS endpoint.
      System.setProperty("jdk.tls.namedGroups", String.join(",", tls.namedGroups()));
    }
  }

  private static ClientAuth clientAuth(Tls tls) {
    WebConfig.ClientAuth a = tls.clientAuth();
    if (!a.requests()) {
      return ClientAuth.NONE;
    }
    // With allowed SANs a certificate is needed to pass the SAN check: refuse the handshake
    // without one rather than serve a client nobody checked.
    return a.requires() || !tls.clientAllowedSans().isEmpty()
        ? ClientAuth.REQUIRED
        : ClientAuth.REQUEST;
  }

  private static ClientCertTrust trustManager(Tls tls) {
    List<X509Certificate> cas = tls.clientCa().map(TlsFiles::certificates).orElse(List.of());
    try {
      return new ClientCertTrust(
          tls.clientAuth().verifies() ? TlsFiles.pkix(cas) : null, cas, tls.clientAllowedSans());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up client certificate checks: " + e, e);
    }
  }
}
