package io.linkwatch.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * An HTTP endpoint on 127.0.0.1 that stands where an operator's paging gateway would: it keeps
 * every notification Alertmanager's webhook integration posts (the JSON body, whole) and answers
 * 200, as a gateway that accepted it would.
 */
public final class WebhookReceiver implements AutoCloseable {
  private final HttpServer server;
  private final List<String> bodies = new ArrayList<>();

  private WebhookReceiver(HttpServer server) {
    this.server = server;
  }

  public static WebhookReceiver start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    WebhookReceiver receiver = new WebhookReceiver(server);
    server.createContext(
        "/alerts",
        exchange -> {
          String body = new String(exchange.getRequestBody().readAllBytes(), "UTF-8");
          synchronized (receiver.bodies) {
            receiver.bodies.add(body);
          }
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    return receiver;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/alerts";
  }

  /** Every notification received so far, oldest first. */
  public List<JsonNode> notifications() throws IOException {
    List<String> copy;
    synchronized (bodies) {
      copy = new ArrayList<>(bodies);
    }
    List<JsonNode> out = new ArrayList<>();
    for (String b : copy) {
      out.add(JsonTrees.MAPPER.readTree(b));
    }
    return out;
  }

  /** The raw body of every notification received so far. */
  public List<String> bodies() {
    synchronized (bodies) {
      return new ArrayList<>(bodies);
    }
  }

  /**
   * Every alert of every notification so far, oldest first; each has its own {@code status} (a
   * notification may mix firing and resolved alerts).
   */
  public List<JsonNode> alerts() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode n : notifications()) {
      n.get("alerts").forEach(out::add);
    }
    return out;
  }

  /** Waits until some received alert matches {@code wanted}; returns it. */
  public JsonNode await(String what, Predicate<JsonNode> wanted, java.time.Duration timeout)
      throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (JsonNode a : alerts()) {
        if (wanted.test(a)) {
          return a;
        }
      }
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "no notification with " + what + " within " + timeout + "; received: " + bodies());
      }
      Thread.sleep(500);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
