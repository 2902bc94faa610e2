package io.linkwatch.http;

import io.linkwatch.config.WebConfig;
import io.linkwatch.config.WebConfig.Tls;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.util.LinkedHashSet;

/** The web config's {@code tls_server_config} as Vert.x server TLS options. */
final class ServerTls {
  private ServerTls() {}

  static ServerSSLOptions sslOptions(Tls tls) {
    ServerSSLOptions o =
        new ServerSSLOptions()
            .setKeyCertOptions(
                new PemKeyCertOptions()
                    .setCertPath(tls.certFile().toString())
                    .setKeyPath(tls.keyFile().toString()))
            .setClientAuth(clientAuth(tls.clientAuth()))
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(tls.protocols()));
    tls.clientCaFile()
        .ifPresent(ca -> o.setTrustOptions(new PemTrustOptions().addCertPath(ca.toString())));
    tls.cipherSuites().forEach(o::addEnabledCipherSuite);
    return o;
  }

  /** Turns TLS on in {@code options} with {@link #sslOptions}. */
  static void enable(HttpServerOptions options, Tls tls) {
    ServerSSLOptions ssl = sslOptions(tls);
    options
        .setSsl(true)
        .setKeyCertOptions(ssl.getKeyCertOptions())
        .setClientAuth(ssl.getClientAuth())
        .setEnabledSecureTransportProtocols(ssl.getEnabledSecureTransportProtocols());
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

  private static ClientAuth clientAuth(WebConfig.ClientAuth a) {
    return switch (a) {
      case NO_CLIENT_CERT -> ClientAuth.NONE;
      case VERIFY_CLIENT_CERT_IF_GIVEN -> ClientAuth.REQUEST;
      case REQUIRE_AND_VERIFY_CLIENT_CERT -> ClientAuth.REQUIRED;
    };
  }
}
