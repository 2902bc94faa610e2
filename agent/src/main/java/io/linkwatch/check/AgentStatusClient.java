package io.linkwatch.check;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.linkwatch.verdict.Verdict;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads a running agent's {@code /api/v1/status}: what it last measured and read. */
public final class AgentStatusClient {
  private final String base;
  private final Duration timeout;

  /**
   * @param url the agent's address, e.g. {@code http://127.0.0.1:10187}
   */
  public AgentStatusClient(String url, Duration timeout) {
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    this.timeout = timeout;
  }

  public String base() {
    return base;
  }

  /**
   * The status document.
   *
   * @throws java.net.ConnectException when nothing listens there
   * @throws java.net.http.HttpTimeoutException when the agent does not answer within the timeout
   * @throws IOException on any other HTTP failure, a status other than 200, or a document of
   *     another {@link Verdict#STATUS_SCHEMA_VERSION} (an agent of another version: its figures
   *     would be read as missing)
   * @throws com.google.gson.JsonParseException when the answer is not JSON
   */
  public JsonObject fetch() throws IOException, InterruptedException {
    String statusUrl = base + "/api/v1/status";
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(statusUrl)).timeout(timeout).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("HTTP " + r.statusCode() + " from " + statusUrl);
    }
    JsonObject status = JsonParser.parseString(r.body()).getAsJsonObject();
    JsonElement version = status.get("schema_version");
    if (version == null
        || !version.isJsonPrimitive()
        || version.getAsInt() != Verdict.STATUS_SCHEMA_VERSION) {
      throw new IOException(
          "the agent at "
              + base
              + " writes status schema "
              + (version == null ? "1 (no schema_version)" : version.toString())
              + ", this linkwatch reads "
              + Verdict.STATUS_SCHEMA_VERSION
              + ": run the same linkwatch version on both sides");
    }
    return status;
  }
}
