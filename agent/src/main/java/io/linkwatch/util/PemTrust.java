package io.linkwatch.util;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * PEM certificates as the JDK's TLS trusts them: the web config's CAs, a client's {@code ca_file},
 * and the Kubernetes service account's {@code ca.crt} are all read here, so a file that holds no
 * certificate fails the same way, with its name, wherever it is named.
 */
public final class PemTrust {
  private PemTrust() {}

  /**
   * The certificates of PEM text; none is an error.
   *
   * @param name how messages name the source (a file, or "inline PEM")
   * @throws IllegalArgumentException naming the source and what is wrong
   */
  public static List<X509Certificate> certificates(byte[] pem, String name) {
    Collection<? extends Certificate> certs;
    try {
      certs =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
    } catch (CertificateException e) {
      throw new IllegalArgumentException(name + ": not a PEM certificate: " + e.getMessage());
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException(name + ": holds no PEM certificate");
    }
    return certs.stream().map(X509Certificate.class::cast).toList();
  }

  /** The JDK's PKIX check against {@code cas}, or against the JDK's trusted CAs when none. */
  public static X509ExtendedTrustManager pkix(List<X509Certificate> cas)
      throws GeneralSecurityException {
    TrustManagerFactory f =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    f.init(cas.isEmpty() ? null : trustStore(cas));
    for (TrustManager tm : f.getTrustManagers()) {
      if (tm instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("the JDK has no X.509 trust manager");
  }

  /**
   * A TLS client context that trusts {@code cas} only (and checks the server's name as the JDK
   * does).
   */
  public static SSLContext trusting(List<X509Certificate> cas) throws GeneralSecurityException {
    if (cas.isEmpty()) {
      throw new GeneralSecurityException("no CA to trust");
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {pkix(cas)}, null);
    return context;
  }

  /** A key store holding {@code certs} as trusted entries. */
  private static KeyStore trustStore(List<? extends Certificate> certs)
      throws GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      ks.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
    for (int i = 0; i < certs.size(); i++) {
      ks.setCertificateEntry("ca" + i, certs.get(i));
    }
    return ks;
  }
}
