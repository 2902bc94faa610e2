package io.linkwatch.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test certificates made with the real {@code openssl} command: a CA, a server certificate it
 * signed for {@code localhost} and {@code 127.0.0.1}, a client certificate it signed, and a key
 * that belongs to none of them. Files are PEM under {@code dir}.
 */
public final class Certs {
  public final Path dir;
  public final Path ca;
  public final Path caKey;
  public final Path serverCert;
  public final Path serverKey;
  public final Path clientCert;
  public final Path clientKey;
  public final Path otherKey;

  private Certs(Path dir) {
    this.dir = dir;
    ca = dir.resolve("ca.pem");
    caKey = dir.resolve("ca-key.pem");
    serverCert = dir.resolve("server.pem");
    serverKey = dir.resolve("server-key.pem");
    clientCert = dir.resolve("client.pem");
    clientKey = dir.resolve("client-key.pem");
    otherKey = dir.resolve("other-key.pem");
  }

  public static Certs make(Path dir) throws IOException, InterruptedException {
    Certs c = new Certs(Files.createDirectories(dir));
    openssl(
        dir,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=linkwatch test CA",
        "-keyout",
        c.caKey.toString(),
        "-out",
        c.ca.toString());
    c.signed("server", c.serverKey, c.serverCert, "subjectAltName=DNS:localhost,IP:127.0.0.1");
    c.signed("client", c.clientKey, c.clientCert, "extendedKeyUsage=clientAuth");
    openssl(
        dir,
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-out",
        c.otherKey.toString());
    return c;
  }

  /**
   * A further client certificate signed by this CA, with {@code extension} (e.g. {@code
   * subjectAltName=DNS:scraper.example}): {@code dir/NAME.pem} and {@code dir/NAME-key.pem}.
   */
  public Path[] client(String name, String extension) throws IOException, InterruptedException {
    Path key = dir.resolve(name + "-key.pem");
    Path cert = dir.resolve(name + ".pem");
    signed(name, key, cert, "extendedKeyUsage=clientAuth\n" + extension);
    return new Path[] {cert, key};
  }

  private void signed(String name, Path key, Path cert, String extension)
      throws IOException, InterruptedException {
    Path csr = dir.resolve(name + ".csr");
    Path ext = dir.resolve(name + ".ext");
    Files.writeString(ext, extension + "\n");
    openssl(
        dir,
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=" + name,
        "-keyout",
        key.toString(),
        "-out",
        csr.toString());
    openssl(
        dir,
        "x509",
        "-req",
        "-in",
        csr.toString(),
        "-CA",
        ca.toString(),
        "-CAkey",
        caKey.toString(),
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        ext.toString(),
        "-out",
        cert.toString());
  }

  /** Runs {@code openssl args} in {@code dir}; fails the test with its output when it fails. */
  public static String openssl(Path dir, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("openssl"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed:\n" + out);
    }
    return out;
  }
}
