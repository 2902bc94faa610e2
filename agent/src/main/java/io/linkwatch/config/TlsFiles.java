package io.linkwatch.config;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;

/**
 * Reads the PEM files (or inline PEM text) of a web config the way the server will, so that one
 * that cannot serve fails at load time with its name and reason: a missing file, a file without a
 * certificate, a key that is not a private key (PKCS#8, PKCS#1 RSA or SEC1 EC, as Vert.x reads
 * them) or that does not belong to the certificate.
 */
final class TlsFiles {
  private TlsFiles() {}

  static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
    }
  }

  static byte[] read(WebConfig.Pem pem) {
    return pem.path().map(TlsFiles::read).orElseGet(pem::bytes);
  }

  /** The certificates of a PEM file or text; none is an error. */
  static Collection<? extends Certificate> certificates(WebConfig.Pem source) {
    byte[] pem = read(source);
    String file = source.describe();
    Collection<? extends Certificate> certs;
    try {
      certs =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
    } catch (CertificateException e) {
      throw new IllegalArgumentException(file + ": not a PEM certificate: " + e.getMessage());
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException(file + ": holds no PEM certificate");
    }
    return certs;
  }

  /**
   * Checks that {@code keyFile} holds the private key of the first certificate of {@code certFile}
   * (by signing with the one and verifying with the other).
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  static void checkKeyPair(WebConfig.Pem certFile, WebConfig.Pem keyFile) {
    X509Certificate cert = (X509Certificate) certificates(certFile).iterator().next();
    byte[] key = read(keyFile);
    PrivateKey privateKey;
    try {
      KeyManager[] managers =
          new PemKeyCertOptions()
              .setKeyValue(Buffer.buffer(key))
              .setCertValue(Buffer.buffer(read(certFile)))
              .getKeyManagerFactory(null)
              .getKeyManagers();
      X509KeyManager manager = (X509KeyManager) managers[0];
      String alias = manager.getServerAliases(cert.getPublicKey().getAlgorithm(), null)[0];
      privateKey = manager.getPrivateKey(alias);
    } catch (Exception e) {
      throw new IllegalArgumentException(
          keyFile.describe() + ": not a PEM private key (PKCS#8, RSA or EC): " + firstLine(e));
    }
    if (!privateKey.getAlgorithm().equals(cert.getPublicKey().getAlgorithm())
        || !signs(privateKey, cert)) {
      throw new IllegalArgumentException(
          keyFile.describe()
              + ": is not the key of the certificate in "
              + certFile.describe()
              + " ("
              + cert.getSubjectX500Principal().getName()
              + ")");
    }
  }

  private static boolean signs(PrivateKey key, X509Certificate cert) {
    String algorithm =
        key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
    try {
      byte[] data = new byte[32];
      new SecureRandom().nextBytes(data);
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(data);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(cert.getPublicKey());
      verify.update(data);
      return verify.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static String firstLine(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.lines().findFirst().orElse(m);
  }
}
