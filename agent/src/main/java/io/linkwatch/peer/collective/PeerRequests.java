package io.linkwatch.peer.collective;

import io.linkwatch.check.ClientTls;
import io.linkwatch.config.HttpClientConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * How this agent asks its peers' agents: one HTTP client, https where the peers' client config has
 * a {@code tls_config} (the fleet's agents share one web config), with its login on every request.
 * The leases of the two-host runs and the identity requests go through it.
 */
public final class PeerRequests {
  private final HttpClient http;
  private final HttpClientConfig login;
  private final String scheme;
  private final String configKey;

  /**
   * @param login the client config ({@link HttpClientConfig#NONE}: plain HTTP, no login)
   * @param configKey the key that sets it, for the hint when plain HTTP meets an https agent
   */
  public PeerRequests(HttpClientConfig login, String configKey) {
    this.login = login;
    this.configKey = configKey;
    boolean https = !login.tls().equals(HttpClientConfig.Tls.NONE);
    this.scheme = https ? "https" : "http";
    HttpClient.Builder client =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(login.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
    if (https) {
      ClientTls.apply(login.tls(), client);
    }
    this.http = client.build();
  }

  /** A request to the peer {@code member} ({@code host:port}), with this host's login. */
  public HttpRequest.Builder to(String member, String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(scheme + "://" + member + path));
    login.authorization().ifPresent(a -> b.header("Authorization", a.header()));
    return b;
  }

  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body)
      throws java.io.IOException, InterruptedException {
    return http.send(request, body);
  }

  /**
   * {@code member}'s {@code /api/v1/identity}; throws with the status and the answer's line, or,
   * where no answer came, with the https hint.
   */
  public String identity(String member) throws java.io.IOException, InterruptedException {
    HttpResponse<String> r;
    try {
      r =
          send(
              to(member, "/api/v1/identity").timeout(Duration.ofSeconds(5)).GET().build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      // No answer at all: plain HTTP to an https agent fails just so.
      throw new java.io.IOException(e.getMessage() + httpsHint(), e);
    }
    if (r.statusCode() != 200) {
      String line = r.body().strip().lines().findFirst().orElse("");
      throw new java.io.IOException(
          "HTTP "
              + r.statusCode()
              + " from /api/v1/identity"
              + (line.isEmpty() ? "" : ": " + line));
    }
    return r.body();
  }

  /** Plain HTTP to an agent that serves https fails without a word of why: say it. */
  public String httpsHint() {
    return "http".equals(scheme)
        ? " (if the peers serve https, set " + configKey + " with a tls_config)"
        : "";
  }
}
