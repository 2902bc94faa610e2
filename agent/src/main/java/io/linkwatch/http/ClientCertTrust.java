package io.linkwatch.http;

import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Checks a client certificate as the exporter-toolkit does: against the client CAs when the {@code
 * client_auth_type} verifies (else any certificate passes), then, with {@code client_allowed_sans},
 * that one of its SANs is allowed. SANs compare as Go writes them: DNS names, e-mail addresses and
 * URIs as given, IP addresses in Go's form ({@code 10.0.0.1}, {@code ::1}). Only the server side is
 * used.
 */
final class ClientCertTrust extends X509ExtendedTrustManager {
  /** The PKIX check, or null when certificates are not verified. */
  private final X509ExtendedTrustManager verify;

  private final X509Certificate[] issuers;
  private final List<String> allowedSans;

  ClientCertTrust(
      X509ExtendedTrustManager verify, List<X509Certificate> cas, List<String> allowedSans) {
    this.verify = verify;
    this.issuers =
        verify != null ? verify.getAcceptedIssuers() : cas.toArray(new X509Certificate[0]);
    this.allowedSans = List.copyOf(allowedSans);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    if (verify != null) {
      verify.checkClientTrusted(chain, authType, engine);
    }
    checkSans(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    if (verify != null) {
      verify.checkClientTrusted(chain, authType, socket);
    }
    checkSans(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (verify != null) {
      verify.checkClientTrusted(chain, authType);
    }
    checkSans(chain);
  }

  private void checkSans(X509Certificate[] chain) throws CertificateException {
    if (allowedSans.isEmpty()) {
      return;
    }
    if (chain == null || chain.length == 0) {
      throw new CertificateException("no client certificate, and client_allowed_sans is set");
    }
    List<String> sans = sans(chain[0]);
    if (sans.stream().noneMatch(allowedSans::contains)) {
      throw new CertificateException(
          "client certificate SANs " + sans + " include none of client_allowed_sans");
    }
  }

  /** The SANs of {@code cert} as Go writes them: DNS, e-mail, IP and URI entries. */
  static List<String> sans(X509Certificate cert) throws CertificateParsingException {
    List<String> out = new ArrayList<>();
    Collection<List<?>> names = cert.getSubjectAlternativeNames();
    if (names == null) {
      return out;
    }
    for (List<?> name : names) {
      int type = (Integer) name.get(0);
      if (type == 1 || type == 2 || type == 6) { // rfc822Name, dNSName, URI
        out.add((String) name.get(1));
      } else if (type == 7) { // iPAddress
        out.add(goIp((String) name.get(1)));
      }
    }
    return out;
  }

  /**
   * An IP address as Go's {@code net.IP.String()} writes it: dotted IPv4 (also for an IPv4-mapped
   * IPv6 address), IPv6 in lower-case hex with the longest run of two or more zero groups as {@code
   * ::}. Java writes IPv6 addresses in full ({@code 0:0:0:0:0:0:0:1}).
   */
  static String goIp(String javaText) {
    byte[] b;
    try {
      b = InetAddress.getByName(javaText).getAddress(); // a literal: no lookup
    } catch (UnknownHostException e) {
      return javaText;
    }
    if (b.length == 4) {
      return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
    }
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j == i ? i + 1 : j;
    }
    if (bestLen < 2) {
      bestStart = -1;
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        s.append("::");
        i += bestLen - 1;
        continue;
      }
      if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
        s.append(':');
      }
      s.append(Integer.toHexString(groups[i]));
    }
    return s.toString();
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return issuers.clone();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("a server-side trust manager checks no servers");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("a server-side trust manager checks no servers");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a server-side trust manager checks no servers");
  }
}
