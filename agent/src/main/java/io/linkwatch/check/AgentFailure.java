package io.linkwatch.check;

import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.util.Durations;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.time.Duration;
import javax.net.ssl.SSLException;

/**
 * Why the agent could not be asked, in words that say what to do, e.g.
 *
 * <pre>
 * connection refused
 * HTTP 401: the agent wants a login: set basic_auth in --http.config.file
 * certificate not trusted: set tls_config.ca_file in --http.config.file
 * </pre>
 *
 * An agent behind its web config answers a client without the login with 401 and a client that does
 * not trust its CA fails the handshake: without these words both would read as an agent that is
 * simply not there.
 */
public final class AgentFailure {
  private AgentFailure() {}

  /**
   * @param e what {@link AgentStatusClient#fetch()} threw
   * @param timeout the limit it had
   * @param http the client config it used ({@link HttpClientConfig#NONE} without one)
   */
  public static String reason(Throwable e, Duration timeout, HttpClientConfig http) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e instanceof HttpTimeoutException) {
      return "no answer within " + Durations.format(timeout);
    }
    if (e instanceof AgentStatusClient.Refused r && r.status() == 401) {
      return http.authorization()
          .map(a -> "HTTP 401: the agent refused the login (" + a.who() + ") of " + http.source())
          .orElse("HTTP 401: the agent wants a login: set basic_auth in --http.config.file");
    }
    String tls = tls(e, http);
    if (tls != null) {
      return tls;
    }
    if (String.valueOf(e.getMessage()).contains("header parser received no bytes")) {
      // What the JDK's client says when a TLS server drops the plain HTTP request it was sent.
      return "closed without an answer: a TLS agent wants https:// in --url";
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** The words for a failed TLS handshake, or null when {@code e} is none. */
  private static String tls(Throwable e, HttpClientConfig http) {
    boolean ssl = false;
    boolean untrusted = false;
    StringBuilder messages = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      ssl |= t instanceof SSLException;
      untrusted |= t instanceof CertPathBuilderException || t instanceof CertPathValidatorException;
      messages.append(t.getMessage()).append('\n');
    }
    String all = messages.toString();
    HttpClientConfig.Tls config = http.tls();
    if (untrusted || all.contains("PKIX path")) {
      return config.ca().isPresent()
          ? "certificate not trusted by tls_config.ca_file of " + http.source()
          : "certificate not trusted: set tls_config.ca_file in --http.config.file";
    }
    if (all.contains("No subject alternative") || all.contains("No name matching")) {
      return "certificate not for this host: use a --url host the certificate names";
    }
    if (all.contains("certificate_required") || all.contains("bad_certificate")) {
      return config.cert().isPresent()
          ? "the agent refused the client certificate of " + http.source()
          : "the agent wants a client certificate: set tls_config.cert_file and key_file in"
              + " --http.config.file";
    }
    if (ssl) {
      return "TLS handshake failed: " + firstLine(e);
    }
    return null;
  }

  private static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.lines().findFirst().orElse(m);
  }
}
