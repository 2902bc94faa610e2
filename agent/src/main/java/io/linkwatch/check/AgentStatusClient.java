package io.linkwatch.check;

import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.status.StatusCodec;
import io.linkwatch.status.StatusDocument;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads a running agent's {@code /api/v1/status}: what it last measured and read. Behind the
 * agent's web config it logs in and trusts as {@code --http.config.file} says ({@link
 * HttpClientConfig}); {@link AgentFailure} says in words why an ask failed.
 */
public final class AgentStatusClient {
  private final String base;
  private final Duration timeout;
  private final HttpClientConfig http;

  /**
   * @param url the agent's address, e.g. {@code http://127.0.0.1:10187}
   */
  public AgentStatusClient(String url, Duration timeout) {
    this(url, timeout, HttpClientConfig.NONE);
  }

  public AgentStatusClient(String url, Duration timeout, HttpClientConfig http) {
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    this.timeout = timeout;
    this.http = http;
  }

  public String base() {
    return base;
  }

  /** An answer other than 200, with its status code. */
  public static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;
    private final int status;

    Refused(int status, String url) {
      super("HTTP " + status + " from " + url);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /**
   * The status document.
   *
   * @throws java.net.ConnectException when nothing listens there
   * @throws java.net.http.HttpTimeoutException when the agent does not answer within the timeout
   * @throws Refused on a status other than 200
   * @throws IOException on any other HTTP or TLS failure, an answer that is not a status document,
   *     or a document of another {@link StatusDocument#SCHEMA_VERSION} (an agent of another
   *     version: its figures would be read as missing)
   */
  public StatusDocument fetch() throws IOException, InterruptedException {
    String statusUrl = base + "/api/v1/status";
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .version(http.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
    if (statusUrl.startsWith("https:")) {
      ClientTls.apply(http.tls(), builder);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(statusUrl)).timeout(timeout).GET();
    http.authorization().ifPresent(a -> request.header("Authorization", a.header()));
    HttpResponse<String> r =
        builder.build().send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new Refused(r.statusCode(), statusUrl);
    }
    try {
      return StatusCodec.decode(r.body());
    } catch (StatusCodec.OtherSchema e) {
      throw new IOException(
          "the agent at "
              + base
              + " writes status schema "
              + e.found()
              + ", this linkwatch reads "
              + StatusDocument.SCHEMA_VERSION
              + ": run the same linkwatch version on both sides",
          e);
    }
  }
}
