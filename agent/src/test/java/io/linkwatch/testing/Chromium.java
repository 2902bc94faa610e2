package io.linkwatch.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real headless Chromium (Debian's {@code chromium}) driven through its DevTools protocol over
 * java.net.http's WebSocket: one page, whose network requests, console messages and exceptions are
 * recorded. A basic-auth challenge is answered as a person would answer the browser's login prompt
 * ({@code Fetch.authRequired}), so the browser caches the login for the page's own requests.
 *
 * <pre>
 * try (Chromium c = Chromium.start(dir, false)) {
 *   c.navigate("http://127.0.0.1:10190/");
 *   String text = c.eval("document.title");
 * }
 * </pre>
 */
public final class Chromium implements AutoCloseable {
  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
  private final List<JsonObject> events = new ArrayList<>();
  private volatile String[] login;

  private Chromium(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  /** Whether {@code chromium} is on the PATH. */
  public static boolean installed() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, "chromium"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Starts the browser with its profile under {@code dir}. {@code ignoreCertificateErrors} accepts
   * the test CA's server certificate (the browser has no flag to trust one more CA file).
   */
  public static Chromium start(Path dir, boolean ignoreCertificateErrors) throws Exception {
    Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "chromium",
                "--headless",
                // As root (the CI container) Chromium runs only without its sandbox.
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--hide-scrollbars",
                "--window-size=1280,1000",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile));
    if (ignoreCertificateErrors) {
      cmd.add("--ignore-certificate-errors");
    }
    cmd.add("about:blank");
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("chromium.log").toFile())
            .start();
    try {
      Path active = profile.resolve("DevToolsActivePort");
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!Files.exists(active) || Files.readAllLines(active).size() < 2) {
        if (!p.isAlive() || System.nanoTime() > end) {
          throw new IllegalStateException(
              "chromium did not start: " + Files.readString(dir.resolve("chromium.log")));
        }
        Thread.sleep(50);
      }
      int port = Integer.parseInt(Files.readAllLines(active).get(0).strip());
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/json/new?about:blank"))
                  .PUT(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String ws = new JsonObject(created.body()).getString("webSocketDebuggerUrl");
      Chromium[] self = new Chromium[1];
      Listener listener = new Listener(self);
      WebSocket socket =
          http.newWebSocketBuilder().buildAsync(URI.create(ws), listener).get(10, TimeUnit.SECONDS);
      self[0] = new Chromium(p, socket);
      for (String domain : List.of("Page", "Network", "Runtime", "Log")) {
        self[0].send(domain + ".enable", new JsonObject());
      }
      return self[0];
    } catch (Exception e) {
      p.destroyForcibly();
      throw e;
    }
  }

  /** Answers the next basic-auth challenges with this user and password. */
  public void login(String user, String password) throws Exception {
    login = new String[] {user, password};
    send(
        "Fetch.enable",
        new JsonObject()
            .put("handleAuthRequests", true)
            .put("patterns", new JsonArray().add(new JsonObject().put("urlPattern", "*"))));
  }

  private static final class Listener implements WebSocket.Listener {
    private final Chromium[] self;
    private final StringBuilder partial = new StringBuilder();

    Listener(Chromium[] self) {
      this.self = self;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        JsonObject message = new JsonObject(partial.toString());
        partial.setLength(0);
        // The first messages may come before the constructor returned.
        while (self[0] == null) {
          Thread.onSpinWait();
        }
        self[0].received(message);
      }
      ws.request(1);
      return null;
    }
  }

  private void received(JsonObject message) {
    Integer id = message.getInteger("id");
    if (id != null) {
      CompletableFuture<JsonObject> f = pending.remove(id);
      if (f != null) {
        f.complete(message);
      }
      return;
    }
    String method = message.getString("method", "");
    JsonObject params = message.getJsonObject("params", new JsonObject());
    // Interception is on only for the login: let every request through, answer the challenge.
    if (method.equals("Fetch.requestPaused")) {
      sendAsync(
          "Fetch.continueRequest",
          new JsonObject().put("requestId", params.getString("requestId")));
    } else if (method.equals("Fetch.authRequired")) {
      String[] l = login;
      sendAsync(
          "Fetch.continueWithAuth",
          new JsonObject()
              .put("requestId", params.getString("requestId"))
              .put(
                  "authChallengeResponse",
                  l == null
                      ? new JsonObject().put("response", "CancelAuth")
                      : new JsonObject()
                          .put("response", "ProvideCredentials")
                          .put("username", l[0])
                          .put("password", l[1])));
    }
    synchronized (events) {
      events.add(message);
      events.notifyAll();
    }
  }

  private CompletableFuture<JsonObject> sendAsync(String method, JsonObject params) {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonObject> f = new CompletableFuture<>();
    pending.put(id, f);
    String text =
        new JsonObject().put("id", id).put("method", method).put("params", params).encode();
    synchronized (socket) {
      socket.sendText(text, true).join();
    }
    return f;
  }

  /** Sends a command and returns its result; throws with the browser's error message. */
  public JsonObject send(String method, JsonObject params) throws Exception {
    JsonObject answer = sendAsync(method, params).get(30, TimeUnit.SECONDS);
    if (answer.containsKey("error")) {
      throw new IllegalStateException(method + ": " + answer.getJsonObject("error").encode());
    }
    return answer.getJsonObject("result", new JsonObject());
  }

  /** Every event received so far with this method, e.g. {@code Network.requestWillBeSent}. */
  public List<JsonObject> events(String method) {
    synchronized (events) {
      return events.stream()
          .filter(e -> method.equals(e.getString("method")))
          .map(e -> e.getJsonObject("params"))
          .toList();
    }
  }

  /** Opens {@code url} and waits for its load event. */
  public void navigate(String url) throws Exception {
    int before = events("Page.loadEventFired").size();
    JsonObject r = send("Page.navigate", new JsonObject().put("url", url));
    if (r.getString("errorText") != null) {
      throw new IllegalStateException("navigating to " + url + ": " + r.getString("errorText"));
    }
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    synchronized (events) {
      while (events("Page.loadEventFired").size() == before) {
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
          throw new IllegalStateException("no load event from " + url);
        }
        events.wait(left);
      }
    }
  }

  /** The value of a JavaScript expression in the page (JSON-like values come back as such). */
  public Object eval(String expression) throws Exception {
    JsonObject r =
        send(
            "Runtime.evaluate",
            new JsonObject()
                .put("expression", expression)
                .put("returnByValue", true)
                .put("awaitPromise", true));
    if (r.containsKey("exceptionDetails")) {
      throw new IllegalStateException(expression + ": " + r.getJsonObject("exceptionDetails"));
    }
    return r.getJsonObject("result").getValue("value");
  }

  /** Polls {@code expression} until it is true, or fails after {@code timeout}. */
  public void await(String expression, Duration timeout) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (!Boolean.TRUE.equals(eval(expression))) {
      if (System.nanoTime() > end) {
        throw new AssertionError("the page never had " + expression);
      }
      Thread.sleep(200);
    }
  }

  /**
   * The console errors, uncaught exceptions and error log entries (failed loads among them) seen so
   * far, one line each.
   */
  public List<String> errors() {
    List<String> out = new ArrayList<>();
    for (JsonObject c : events("Runtime.consoleAPICalled")) {
      if ("error".equals(c.getString("type")) || "assert".equals(c.getString("type"))) {
        out.add("console." + c.getString("type") + ": " + c.getJsonArray("args").encode());
      }
    }
    for (JsonObject e : events("Runtime.exceptionThrown")) {
      out.add("exception: " + e.getJsonObject("exceptionDetails").encode());
    }
    for (JsonObject e : events("Log.entryAdded")) {
      JsonObject entry = e.getJsonObject("entry");
      if ("error".equals(entry.getString("level"))) {
        out.add("log: " + entry.getString("text") + " " + entry.getString("url", ""));
      }
    }
    return out;
  }

  /** The URL of every request the page made. */
  public List<String> requests() {
    return events("Network.requestWillBeSent").stream()
        .map(e -> e.getJsonObject("request").getString("url"))
        .toList();
  }

  /** A PNG of the whole page (not only the window). */
  public byte[] screenshot() throws Exception {
    JsonObject size =
        send("Page.getLayoutMetrics", new JsonObject()).getJsonObject("cssContentSize");
    JsonObject r =
        send(
            "Page.captureScreenshot",
            new JsonObject()
                .put("format", "png")
                .put("captureBeyondViewport", true)
                .put(
                    "clip",
                    new JsonObject()
                        .put("x", 0)
                        .put("y", 0)
                        .put("width", size.getDouble("width"))
                        .put("height", size.getDouble("height"))
                        .put("scale", 1)));
    return Base64.getDecoder().decode(r.getString("data"));
  }

  /** Writes {@link #screenshot} to {@code file}. */
  public Path screenshot(Path file) throws Exception {
    Files.createDirectories(file.toAbsolutePath().getParent());
    return Files.write(file, screenshot());
  }

  @Override
  public void close() {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(2, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the browser goes anyway
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
