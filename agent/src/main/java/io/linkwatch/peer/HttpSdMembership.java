package io.linkwatch.peer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.linkwatch.peer.PeerSchedule.Member;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The members from a Prometheus HTTP service-discovery URL: a JSON list of target groups, {@code
 * [{"targets": ["host:port", ...], "labels": {"__meta_linkwatch_tor": "...", ...}}]}, the format
 * Prometheus' {@code http_sd_configs} reads. Read at start and every {@code refresh}, with the
 * header Prometheus sends ({@code X-Prometheus-Refresh-Interval-Seconds}). A read that fails keeps
 * the last list that succeeded (a discovery service that restarts must not empty the fleet), and is
 * logged once per run of failures. Credentials in the URL ({@code https://user:pass@host/}) are
 * sent as basic auth and never logged.
 */
final class HttpSdMembership extends PolledMembership {
  private static final Logger log = LoggerFactory.getLogger(HttpSdMembership.class);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  private final URI url;
  private final String shown;
  private final Duration refresh;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(READ_TIMEOUT).build();

  HttpSdMembership(URI url, Duration refresh) {
    super("peer-http-sd");
    this.url = url;
    this.refresh = refresh;
    this.shown = withoutCredentials(url);
  }

  static HttpSdMembership start(URI url, Duration refresh) {
    HttpSdMembership m = new HttpSdMembership(url, refresh);
    m.startReading(refresh);
    return m;
  }

  @Override
  public String source() {
    return "http_sd";
  }

  @Override
  String shown() {
    return shown;
  }

  @Override
  List<Member> fetch() throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(withoutUserInfo(url))
            .timeout(READ_TIMEOUT)
            .header("Accept", "application/json")
            .header("X-Prometheus-Refresh-Interval-Seconds", String.valueOf(refresh.toSeconds()));
    if (url.getRawUserInfo() != null) {
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(
                      java.net.URLDecoder.decode(url.getRawUserInfo(), StandardCharsets.UTF_8)
                          .getBytes(StandardCharsets.UTF_8)));
    }
    HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("HTTP " + r.statusCode());
    }
    return parse(r.body());
  }

  /**
   * The members of a discovery document; a target that is not {@code host:port} is left out with a
   * warning, a document that is not a list of groups is an error.
   */
  static List<Member> parse(String body) {
    JsonElement root = JsonParser.parseString(body);
    if (!root.isJsonArray()) {
      throw new IllegalArgumentException("not a JSON list of target groups");
    }
    Map<String, Member> out = new LinkedHashMap<>();
    for (JsonElement g : (JsonArray) root) {
      if (!g.isJsonObject() || !g.getAsJsonObject().has("targets")) {
        throw new IllegalArgumentException("a target group without \"targets\": " + g);
      }
      JsonObject group = g.getAsJsonObject();
      JsonObject labels =
          group.has("labels") && group.get("labels").isJsonObject()
              ? group.getAsJsonObject("labels")
              : new JsonObject();
      for (JsonElement t : group.getAsJsonArray("targets")) {
        try {
          String host = PeerAddress.parse(t.getAsString()).text();
          out.putIfAbsent(
              host,
              new Member(
                  host,
                  label(labels, HttpSdLabels.TOR, "tor"),
                  label(labels, HttpSdLabels.RAIL, "rail")));
        } catch (RuntimeException e) {
          log.warn("peers: target {} left out: {}", t, e.getMessage());
        }
      }
    }
    return List.copyOf(new ArrayList<>(out.values()));
  }

  /** The first of {@code names} the group sets. */
  private static String label(JsonObject labels, String... names) {
    for (String name : names) {
      JsonElement v = labels.get(name);
      if (v != null && v.isJsonPrimitive()) {
        return v.getAsString();
      }
    }
    return null;
  }

  private static URI withoutUserInfo(URI u) {
    try {
      return new URI(
          u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), u.getQuery(), null);
    } catch (java.net.URISyntaxException e) {
      return u;
    }
  }

  private static String withoutCredentials(URI u) {
    return withoutUserInfo(u).toString();
  }
}
