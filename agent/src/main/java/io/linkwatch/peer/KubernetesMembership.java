package io.linkwatch.peer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.util.IoReasons;
import io.linkwatch.util.PemTrust;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The members from Kubernetes: the ready endpoints of the EndpointSlices of a Service (headless,
 * over the agents' DaemonSet), as Prometheus' Kubernetes service discovery sees them. Each poll
 * lists
 *
 * <pre>
 * GET /apis/discovery.k8s.io/v1/namespaces/linkwatch/endpointslices
 *     ?labelSelector=kubernetes.io/service-name=linkwatch&amp;limit=500[&amp;continue=...]
 * </pre>
 *
 * with the pod's service-account token (read again for every poll: bound tokens rotate) over TLS
 * checked against the service account's {@code ca.crt} (read again too; the client is rebuilt when
 * it changes), and gives members such as {@code 10.244.1.7:10187} and {@code [fd00::7]:10187}.
 * Kubernetes knows no switch: the members have no {@code tor}. A poll that fails (the API server
 * away, a 403 while the role is missing) keeps the last list, as every polled source does.
 */
final class KubernetesMembership extends PolledMembership {
  /** Slices per page: far more than a Service over one DaemonSet has, so one page as a rule. */
  static final int PAGE = 500;

  /** Pages at most: a server that hands out continue tokens forever must not hold the poll. */
  private static final int MAX_PAGES = 1000;

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final PeerConfig.Kubernetes config;
  private final UnaryOperator<String> env;
  private HttpClient client;
  private byte[] clientCa;
  private volatile String namespaceRead;

  KubernetesMembership(PeerConfig.Kubernetes config, UnaryOperator<String> env) {
    super("peer-kubernetes");
    this.config = config;
    this.env = env;
  }

  static KubernetesMembership start(PeerConfig.Kubernetes config) {
    KubernetesMembership m = new KubernetesMembership(config, System::getenv);
    m.startReading(config.refresh());
    return m;
  }

  @Override
  public String source() {
    return "kubernetes";
  }

  @Override
  String shown() {
    String ns = config.namespace().orElse(namespaceRead == null ? "?" : namespaceRead);
    return "the EndpointSlices of service " + ns + "/" + config.service();
  }

  @Override
  List<Member> fetch() throws Exception {
    String base = apiServer();
    String namespace = namespace();
    String token = token();
    HttpClient http = client();
    List<JsonElement> slices = new ArrayList<>();
    String next = null;
    for (int page = 0; page == 0 || next != null; page++) {
      if (page == MAX_PAGES) {
        throw new IllegalStateException("the API server gave more than " + MAX_PAGES + " pages");
      }
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(base + path(namespace, config.service(), next)))
              .timeout(TIMEOUT)
              .header("Accept", "application/json")
              .header("Authorization", "Bearer " + token)
              .build();
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(refusal(r.statusCode(), r.body(), namespace));
      }
      Page p = parse(r.body());
      slices.addAll(p.items());
      next = p.next();
    }
    return members(slices, config.port());
  }

  /** The list's path and query: the Service's slices, a page, after {@code next} when given. */
  static String path(String namespace, String service, String next) {
    return "/apis/discovery.k8s.io/v1/namespaces/"
        + encode(namespace)
        + "/endpointslices?labelSelector="
        + encode("kubernetes.io/service-name=" + service)
        + "&limit="
        + PAGE
        + (next == null ? "" : "&continue=" + encode(next));
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** {@code api_server}, else the address Kubernetes gives every pod in its environment. */
  private String apiServer() {
    if (config.apiServer().isPresent()) {
      return config.apiServer().get().toString().replaceAll("/+$", "");
    }
    String host = env.apply("KUBERNETES_SERVICE_HOST");
    String port = env.apply("KUBERNETES_SERVICE_PORT");
    if (host == null || host.isBlank() || port == null || port.isBlank()) {
      throw new IllegalStateException(
          "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not in a pod?):"
              + " set peers.kubernetes.api_server");
    }
    return "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port.strip();
  }

  /** {@code namespace}, else the pod's own: the {@code namespace} file beside the token. */
  private String namespace() {
    if (config.namespace().isPresent()) {
      return config.namespace().get();
    }
    Path file = config.tokenFile().resolveSibling("namespace");
    String ns = new String(read(file, "the pod's namespace"), StandardCharsets.UTF_8).strip();
    if (ns.isEmpty()) {
      throw new IllegalStateException(file + " is empty: set peers.kubernetes.namespace");
    }
    namespaceRead = ns;
    return ns;
  }

  private String token() {
    String token =
        new String(read(config.tokenFile(), "the service-account token"), StandardCharsets.UTF_8)
            .strip();
    if (token.isEmpty()) {
      throw new IllegalStateException("token file " + config.tokenFile() + " is empty");
    }
    return token;
  }

  /** The client, built again when the CA file's content changed. */
  private HttpClient client() throws GeneralSecurityException {
    byte[] ca = read(config.caFile(), "the API server's CA");
    if (client == null || !Arrays.equals(ca, clientCa)) {
      client =
          HttpClient.newBuilder()
              .connectTimeout(TIMEOUT)
              .sslContext(
                  PemTrust.trusting(
                      PemTrust.certificates(ca, "CA file " + config.caFile().toString())))
              .build();
      clientCa = ca;
    }
    return client;
  }

  private static byte[] read(Path file, String what) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalStateException(
          what
              + ": "
              + file
              + ": no such file (is the service-account token mounted? automountServiceAccountToken)");
    } catch (IOException e) {
      throw new IllegalStateException(what + ": " + file + ": cannot read: " + IoReasons.of(e));
    }
  }

  /** Why the API server said no, with what to do about the usual reasons. */
  static String refusal(int status, String body, String namespace) {
    String message = message(body);
    String why = "HTTP " + status + (message.isEmpty() ? "" : ": " + message);
    return switch (status) {
      case 401 -> why + " (the service-account token was not accepted)";
      case 403 ->
          why
              + " (the service account needs list on endpointslices, API group discovery.k8s.io,"
              + " in namespace "
              + namespace
              + ": docs/peers.md)";
      case 410 -> why + " (the list changed between pages; read again at the next refresh)";
      default -> why;
    };
  }

  /** The {@code message} of a Kubernetes {@code Status} body, else its first line, short. */
  private static String message(String body) {
    try {
      JsonElement e = JsonParser.parseString(body);
      if (e.isJsonObject()
          && e.getAsJsonObject().has("message")
          && e.getAsJsonObject().get("message").isJsonPrimitive()) {
        return e.getAsJsonObject().get("message").getAsString();
      }
    } catch (JsonParseException | IllegalStateException e) {
      // not JSON: the text itself
    }
    String line = body == null ? "" : body.strip().lines().findFirst().orElse("");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  /** One page of an {@code EndpointSliceList}: its slices, and the token of the next page. */
  record Page(List<JsonElement> items, String next) {}

  static Page parse(String body) {
    JsonElement root = JsonParser.parseString(body);
    if (!root.isJsonObject() || !root.getAsJsonObject().has("items")) {
      throw new IllegalArgumentException("not an EndpointSliceList (no \"items\")");
    }
    JsonObject list = root.getAsJsonObject();
    List<JsonElement> items = new ArrayList<>();
    JsonElement i = list.get("items");
    if (i.isJsonArray()) {
      i.getAsJsonArray().forEach(items::add);
    } else if (!i.isJsonNull()) {
      throw new IllegalArgumentException("not an EndpointSliceList (\"items\" is no list)");
    }
    String next = string(object(list, "metadata"), "continue");
    return new Page(items, next == null || next.isEmpty() ? null : next);
  }

  /**
   * The members the slices name: each ready endpoint (a {@code ready} condition that is absent
   * counts as ready, as the API says) on the port named {@code portName} of its slice, sorted, each
   * address once. An endpoint is one pod: a pod in two slices (a dual-stack Service has one slice
   * per address family) is one member, by its IPv4 address where it has one, so that no agent finds
   * itself twice in the list. A slice without the port is left out; slices that all lack it are an
   * error (the port name is wrong), not an empty fleet.
   */
  static List<Member> members(List<JsonElement> slices, String portName) {
    Map<String, Kept> byPod = new HashMap<>();
    TreeSet<String> portsSeen = new TreeSet<>();
    boolean anyWithPort = false;
    for (JsonElement s : slices) {
      JsonObject slice = s.isJsonObject() ? s.getAsJsonObject() : new JsonObject();
      Integer port = null;
      for (JsonElement p : array(slice, "ports")) {
        JsonObject po = p.isJsonObject() ? p.getAsJsonObject() : new JsonObject();
        String name = string(po, "name");
        portsSeen.add(name == null || name.isEmpty() ? "(unnamed)" : name);
        JsonElement number = po.get("port");
        if (portName.equals(name == null ? "" : name)
            && number != null
            && number.isJsonPrimitive()) {
          port = number.getAsInt();
        }
      }
      if (port == null) {
        continue;
      }
      anyWithPort = true;
      String type = string(slice, "addressType");
      int rank = "IPv4".equals(type) ? 0 : "IPv6".equals(type) ? 1 : 2;
      for (JsonElement e : array(slice, "endpoints")) {
        JsonObject endpoint = e.isJsonObject() ? e.getAsJsonObject() : new JsonObject();
        JsonElement ready = object(endpoint, "conditions").get("ready");
        if (ready != null && ready.isJsonPrimitive() && !ready.getAsBoolean()) {
          continue;
        }
        JsonArray addresses = array(endpoint, "addresses");
        // The API: the addresses of one endpoint are fungible, and consumers may use the first.
        if (addresses.isEmpty() || !addresses.get(0).isJsonPrimitive()) {
          continue;
        }
        String host = new PeerAddress(addresses.get(0).getAsString(), port).text();
        JsonObject ref = object(endpoint, "targetRef");
        String pod =
            ref.has("name")
                ? string(ref, "kind") + "/" + string(ref, "namespace") + "/" + string(ref, "name")
                : host;
        Kept kept = byPod.get(pod);
        if (kept == null
            || rank < kept.rank()
            || rank == kept.rank() && host.compareTo(kept.host()) < 0) {
          byPod.put(pod, new Kept(host, rank));
        }
      }
    }
    if (!slices.isEmpty() && !anyWithPort) {
      throw new IllegalStateException(
          "no EndpointSlice has a port named '"
              + portName
              + "' (ports: "
              + String.join(", ", portsSeen)
              + "): set peers.kubernetes.port");
    }
    TreeSet<String> hosts = new TreeSet<>();
    byPod.values().forEach(k -> hosts.add(k.host()));
    return hosts.stream().map(h -> new Member(h, null)).toList();
  }

  /** A pod's address so far, and its family's rank (IPv4 first, then IPv6, then a name). */
  private record Kept(String host, int rank) {}

  private static JsonObject object(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : new JsonObject();
  }

  private static JsonArray array(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonArray() ? e.getAsJsonArray() : new JsonArray();
  }

  private static String string(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }
}
