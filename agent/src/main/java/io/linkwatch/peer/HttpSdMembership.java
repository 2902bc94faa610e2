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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
final class HttpSdMembership implements Membership {
  private static final Logger log = LoggerFactory.getLogger(HttpSdMembership.class);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  private final URI url;
  private final String shown;
  private final Duration refresh;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(READ_TIMEOUT).build();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "peer-http-sd");
            t.setDaemon(true);
            return t;
          });
  private final AtomicLong failures = new AtomicLong();
  private volatile List<Member> members = List.of();
  private volatile String lastError;

  HttpSdMembership(URI url, Duration refresh) {
    this.url = url;
    this.refresh = refresh;
    this.shown = withoutCredentials(url);
  }

  static HttpSdMembership start(URI url, Duration refresh) {
    HttpSdMembership m = new HttpSdMembership(url, refresh);
    m.timer.scheduleWithFixedDelay(m::read, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    return m;
  }

  @Override
  public String source() {
    return "http_sd";
  }

  @Override
  public List<Member> current() {
    return members;
  }

  @Override
  public String lastError() {
    return lastError;
  }

  @Override
  public long failures() {
    return failures.get();
  }

  void read() {
    try {
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
      List<Member> read = parse(r.body());
      if (lastError != null || !read.equals(members)) {
        log.info("peers from {}: {} members", shown, read.size());
      }
      members = read;
      lastError = null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | StackOverflowError e) {
      // An Error escaping would end the periodic reads for good: a nested document is one.
      failures.incrementAndGet();
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      if (lastError == null) {
        log.warn(
            "peers from {}: {}; keeping the {} members read before", shown, why, members.size());
      }
      lastError = why;
    }
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

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
