package io.linkwatch.check;

import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.config.TlsFiles;
import java.net.Socket;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A client's {@code tls_config} set on the JDK's HTTP client: the CAs it trusts ({@code ca_file},
 * else the JDK's), the certificate it presents ({@code cert_file} with {@code key_file}) and the
 * protocols it offers. The host name check stays the JDK's own (the URL's host, which {@code
 * server_name} must equal), except under {@code insecure_skip_verify}, which checks nothing.
 */
public final class ClientTls {
  private ClientTls() {}

  public static void apply(HttpClientConfig.Tls tls, HttpClient.Builder builder) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      KeyManager[] keys =
          tls.cert().isPresent()
              ? new KeyManager[] {TlsFiles.keyManager(tls.cert().get(), tls.key().orElseThrow())}
              : null;
      X509ExtendedTrustManager trust =
          tls.insecureSkipVerify()
              ? new TrustingAll()
              : TlsFiles.pkix(tls.ca().map(TlsFiles::certificates).orElse(List.of()));
      context.init(keys, new TrustManager[] {trust}, null);
      SSLParameters parameters = new SSLParameters();
      parameters.setProtocols(tls.protocols().toArray(new String[0]));
      builder.sslContext(context).sslParameters(parameters);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /**
   * {@code insecure_skip_verify}: any certificate, for any name. Being an extended trust manager,
   * JSSE leaves the host name check to it too, so neither is made.
   */
  private static final class TrustingAll extends X509ExtendedTrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      // insecure_skip_verify: deliberately nothing
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
      // insecure_skip_verify: deliberately nothing
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
      // insecure_skip_verify: deliberately nothing
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      throw new UnsupportedOperationException("a client's trust manager");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
      throw new UnsupportedOperationException("a client's trust manager");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
      throw new UnsupportedOperationException("a client's trust manager");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
