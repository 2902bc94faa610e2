package io.linkwatch.config;

import io.linkwatch.util.IoReasons;
import io.linkwatch.util.PemTrust;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509KeyManager;

/**
 * Reads PEM files (or inline PEM text) into what TLS needs, for the agent's server (web config) and
 * for the client of {@code status} and {@code check} ({@code --http.config.file}) alike, so that a
 * file that cannot serve fails at load time with its name and reason: a missing file, a file
 * without a certificate, a key that is not a private key (PKCS#8, PKCS#1 RSA or SEC1 EC, as Vert.x
 * reads them) or that does not belong to the certificate.
 */
public final class TlsFiles {
  private TlsFiles() {}

  static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + IoReasons.of(e));
    }
  }

  static byte[] read(WebConfig.Pem pem) {
    return pem.path().map(TlsFiles::read).orElseGet(pem::bytes);
  }

  /**
   * The certificates of a PEM file or text; none is an error.
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  public static List<X509Certificate> certificates(WebConfig.Pem source) {
    return PemTrust.certificates(read(source), source.describe());
  }

  /**
   * Whether {@code pem} holds certificates; when not, the reason is a problem under {@code key} of
   * {@code node}.
   */
  static boolean holdsCertificates(ConfigNode node, String key, WebConfig.Pem pem) {
    try {
      certificates(pem);
      return true;
    } catch (IllegalArgumentException e) {
      node.problem(key, e.getMessage());
      return false;
    }
  }

  /** The JDK's PKIX check against {@code cas}, or against the JDK's trusted CAs when none. */
  public static X509ExtendedTrustManager pkix(List<X509Certificate> cas)
      throws GeneralSecurityException {
    return PemTrust.pkix(cas);
  }

  /**
   * The key manager that presents {@code certFile} with {@code keyFile} (a client certificate).
   *
   * @throws IllegalArgumentException naming the key when it is not a private key
   */
  public static X509KeyManager keyManager(WebConfig.Pem certFile, WebConfig.Pem keyFile) {
    byte[] key = read(keyFile);
    byte[] cert = read(certFile);
    try {
      KeyManager[] managers =
          new PemKeyCertOptions()
              .setKeyValue(Buffer.buffer(key))
              .setCertValue(Buffer.buffer(cert))
              .getKeyManagerFactory(null)
              .getKeyManagers();
      return (X509KeyManager) managers[0];
    } catch (Exception e) {
      throw new IllegalArgumentException(
          keyFile.describe() + ": not a PEM private key (PKCS#8, RSA or EC): " + firstLine(e));
    }
  }

  /**
   * Checks that {@code keyFile} holds the private key of the first certificate of {@code certFile}
   * (by signing with the one and verifying with the other).
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  static void checkKeyPair(WebConfig.Pem certFile, WebConfig.Pem keyFile) {
    X509Certificate cert = certificates(certFile).get(0);
    X509KeyManager manager = keyManager(certFile, keyFile);
    PrivateKey privateKey;
    try {
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
