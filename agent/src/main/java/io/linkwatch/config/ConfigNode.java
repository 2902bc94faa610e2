package io.linkwatch.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.probe.SettingsSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A mapping in the config file, read key by key with its path kept, so that every error can name
 * the key ({@code probes.p2p.sizes[1]}). Keys nobody asked for are reported by {@link
 * #rejectUnknown()}: a typo is an error, never silently ignored.
 */
final class ConfigNode implements SettingsSource {
  private final String path;
  private final JsonNode node;
  private final Problems problems;
  private final Set<String> read = new LinkedHashSet<>();

  ConfigNode(String path, JsonNode node, Problems problems) {
    this.path = path;
    this.node = node;
    this.problems = problems;
  }

  String path() {
    return path;
  }

  String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Reports a problem with the value under {@code key} that no single-value parse can see. */
  @Override
  public void problem(String key, String reason) {
    problems.add(child(key), reason);
  }

  boolean has(String key) {
    read.add(key);
    return node.has(key) && !node.get(key).isNull();
  }

  /** Whether {@code key} is present and holds a mapping. */
  boolean hasMapping(String key) {
    return has(key) && node.get(key).isObject();
  }

  /** The mapping under {@code key}; an absent key reads as an empty mapping. */
  ConfigNode mapping(String key) {
    if (!has(key)) {
      return new ConfigNode(
          child(key), com.fasterxml.jackson.databind.node.MissingNode.getInstance(), problems);
    }
    JsonNode v = node.get(key);
    if (!v.isObject()) {
      problems.add(child(key), "must be a mapping of keys to values");
      return new ConfigNode(
          child(key), com.fasterxml.jackson.databind.node.MissingNode.getInstance(), problems);
    }
    return new ConfigNode(child(key), v, problems);
  }

  /** Reads a scalar with {@code parse}, or {@code fallback} when absent or invalid. */
  @Override
  public <T> T scalar(String key, T fallback, Function<String, T> parse) {
    if (!has(key)) {
      return fallback;
    }
    JsonNode v = node.get(key);
    if (!v.isValueNode()) {
      problems.add(
          child(key), "must be a single value, not a " + (v.isArray() ? "list" : "mapping"));
      return fallback;
    }
    try {
      return parse.apply(v.asText());
    } catch (IllegalArgumentException e) {
      problems.add(child(key), e.getMessage());
      return fallback;
    }
  }

  boolean bool(String key, boolean fallback) {
    if (!has(key)) {
      return fallback;
    }
    JsonNode v = node.get(key);
    if (!v.isBoolean()) {
      problems.add(child(key), "must be true or false, not '" + v.asText() + "'");
      return fallback;
    }
    return v.asBoolean();
  }

  @Override
  public int integer(String key, int fallback, int min, int max) {
    if (!has(key)) {
      return fallback;
    }
    JsonNode v = node.get(key);
    if (!v.isIntegralNumber()) {
      problems.add(child(key), "must be a whole number, not '" + v.asText() + "'");
      return fallback;
    }
    long n = v.asLong();
    if (n < min || n > max) {
      problems.add(child(key), "must be between " + min + " and " + max + ", not " + n);
      return fallback;
    }
    return (int) n;
  }

  double number(String key, double fallback, double min, double max) {
    if (!has(key)) {
      return fallback;
    }
    JsonNode v = node.get(key);
    if (!v.isNumber()) {
      problems.add(child(key), "must be a number, not '" + v.asText() + "'");
      return fallback;
    }
    double n = v.asDouble();
    if (n < min || n > max) {
      problems.add(child(key), "must be between " + min + " and " + max + ", not " + n);
      return fallback;
    }
    return n;
  }

  /**
   * Reads a list of scalars, each with {@code parse}. A single scalar is taken as a one-element
   * list, so {@code sizes: 1GiB} works as well as {@code sizes: [1GiB]}.
   */
  @Override
  public <T> List<T> list(
      String key, List<T> fallback, Function<String, T> parse, boolean allowEmpty) {
    if (!has(key)) {
      return fallback;
    }
    JsonNode v = node.get(key);
    List<JsonNode> items = new ArrayList<>();
    if (v.isArray()) {
      v.forEach(items::add);
    } else if (v.isValueNode()) {
      items.add(v);
    } else {
      problems.add(child(key), "must be a list");
      return fallback;
    }
    if (items.isEmpty() && !allowEmpty) {
      problems.add(child(key), "must not be empty");
      return fallback;
    }
    List<T> out = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      String itemPath = child(key) + (v.isArray() ? "[" + i + "]" : "");
      if (!item.isValueNode()) {
        problems.add(itemPath, "must be a single value");
        ok = false;
        continue;
      }
      try {
        out.add(parse.apply(item.asText()));
      } catch (IllegalArgumentException e) {
        problems.add(itemPath, e.getMessage());
        ok = false;
      }
    }
    return ok ? out : fallback;
  }

  /** The keys of this mapping, for sections whose keys are names (e.g. probes). */
  List<String> keys() {
    List<String> keys = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    it.forEachRemaining(e -> keys.add(e.getKey()));
    return keys;
  }

  void rejectUnknown() {
    for (String key : keys()) {
      if (!read.contains(key)) {
        problems.add(child(key), "unknown key");
      }
    }
  }
}
