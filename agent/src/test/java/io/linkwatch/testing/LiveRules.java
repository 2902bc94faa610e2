package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The shipped alert rules with their windows shortened by {@code grafana/test/live-config.py}, and
 * the waits a live test does on the Prometheus that evaluates them.
 */
public final class LiveRules {
  private LiveRules() {}

  /** Writes the shortened rules into {@code dir} and returns their path. */
  public static Path write(Path dir) throws Exception {
    return write(dir, new String[0]);
  }

  /** As {@link #write(Path)}, with live-config.py's options (e.g. {@code --range 7d=5m}). */
  public static Path write(Path dir, String... options) throws Exception {
    Path rules = dir.resolve("rules.yml");
    java.util.List<String> command =
        new java.util.ArrayList<>(
            java.util.List.of(
                "python3",
                Path.of("..", "grafana", "test", "live-config.py").toString(),
                Path.of("..", "grafana", "alerts", "linkwatch.rules.yml").toString(),
                rules.toString()));
    command.addAll(java.util.List.of(options));
    Process gen = new ProcessBuilder(command).inheritIO().start();
    assertThat(gen.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(gen.exitValue()).isZero();
    return rules;
  }

  /** Each pending or firing alert as its name and labels. */
  public static List<String> names(JsonNode alerts) {
    List<String> out = new ArrayList<>();
    alerts.forEach(a -> out.add(name(a)));
    return out;
  }

  /** One alert as its name and labels: {@code LinkwatchProbeStale{"alertname":...}}. */
  public static String name(JsonNode alert) {
    return alert.get("labels").get("alertname").asText() + alert.get("labels");
  }

  /** Waits until {@code q} returns at least {@code atLeast} series. */
  public static JsonNode awaitQuery(QueryApi p, String q, int atLeast, Duration timeout)
      throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    JsonNode r = p.query(q);
    while (r.size() < atLeast && System.nanoTime() < end) {
      Thread.sleep(500);
      r = p.query(q);
    }
    assertThat(r.size()).as("series of " + q).isGreaterThanOrEqualTo(atLeast);
    return r;
  }

  /** Waits until alert {@code name} is pending or firing; returns its instances. */
  public static JsonNode awaitAlert(QueryApi p, String name, Duration timeout) throws Exception {
    return await(p, name, false, timeout);
  }

  /** Waits until alert {@code name} is firing (its `for` has passed); returns its instances. */
  public static JsonNode awaitFiring(QueryApi p, String name, Duration timeout) throws Exception {
    return await(p, name, true, timeout);
  }

  private static JsonNode await(QueryApi p, String name, boolean firing, Duration timeout)
      throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      ArrayNode found = JsonNodeFactory.instance.arrayNode();
      for (JsonNode a : p.alerts()) {
        if (a.get("labels").get("alertname").asText().equals(name)
            && (!firing || a.get("state").asText().equals("firing"))) {
          found.add(a);
        }
      }
      if (!found.isEmpty()) {
        return found;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(
        name
            + (firing ? " never fired" : " never became pending or firing")
            + "; alerts: "
            + p.alerts());
  }

  /** A Prometheus that has not scraped yet holds LinkwatchAgentDown pending for a moment. */
  public static void awaitNoAlerts(QueryApi p, Duration timeout) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (!names(p.alerts()).isEmpty() && System.nanoTime() < end) {
      Thread.sleep(500);
    }
    assertThat(names(p.alerts())).as("alerts at start").isEmpty();
  }
}
