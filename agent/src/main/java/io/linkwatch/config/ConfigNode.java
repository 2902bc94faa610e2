package io.linkwatch.config;

import io.linkwatch.probe.SettingsSource;
import io.linkwatch.util.ClosestName;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A mapping in the config file, read key by key with its path kept, so that every error can name
 * the key ({@code probes.p2p.sizes[1]}). Keys nobody asked for are reported by {@link
 * #rejectUnknown()}: a typo is an error, never silently ignored. Built on SnakeYAML's node tree
 * (before any value is constructed), so a value is read as the text it was written with.
 */
final class ConfigNode implements SettingsSource {
  private final String path;

  /** The mapping, or null for an absent one (read as empty). */
  private final MappingNode node;

  private final Problems problems;
  private final Set<String> read = new LinkedHashSet<>();

  ConfigNode(String path, MappingNode node, Problems problems) {
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
    Node v = get(key);
    return v != null && !v.getTag().equals(Tag.NULL);
  }

  /** The value under {@code key}, or null; a key given twice is reported by {@link #keys()}. */
  private Node get(String key) {
    if (node == null) {
      return null;
    }
    Node found = null;
    for (NodeTuple t : node.getValue()) {
      if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
        found = t.getValueNode();
      }
    }
    return found;
  }

  /** Whether {@code key} is present and holds a mapping. */
  boolean hasMapping(String key) {
    return has(key) && get(key) instanceof MappingNode;
  }

  /** The mapping under {@code key}; an absent key reads as an empty mapping. */
  ConfigNode mapping(String key) {
    if (!has(key)) {
      return new ConfigNode(child(key), null, problems);
    }
    if (!(get(key) instanceof MappingNode v)) {
      problems.add(child(key), "must be a mapping of keys to values");
      return new ConfigNode(child(key), null, problems);
    }
    return new ConfigNode(child(key), v, problems);
  }

  /**
   * The mappings listed under {@code key} ({@code expected[0]}, {@code expected[1]}, ...); an
   * absent key reads as none, an item that is not a mapping is reported and left out.
   */
  List<ConfigNode> mappings(String key) {
    if (!has(key)) {
      return List.of();
    }
    if (!(get(key) instanceof SequenceNode sequence)) {
      problems.add(child(key), "must be a list of mappings");
      return List.of();
    }
    List<ConfigNode> out = new ArrayList<>();
    for (int i = 0; i < sequence.getValue().size(); i++) {
      Node item = sequence.getValue().get(i);
      String itemPath = child(key) + "[" + i + "]";
      if (item instanceof MappingNode m) {
        out.add(new ConfigNode(itemPath, m, problems));
      } else {
        problems.add(itemPath, "must be a mapping of keys to values");
      }
    }
    return out;
  }

  /** Reads a scalar with {@code parse}, or {@code fallback} when absent or invalid. */
  @Override
  public <T> T scalar(String key, T fallback, Function<String, T> parse) {
    if (!has(key)) {
      return fallback;
    }
    Node v = get(key);
    if (!(v instanceof ScalarNode scalar)) {
      problems.add(
          child(key),
          "must be a single value, not a " + (v instanceof SequenceNode ? "list" : "mapping"));
      return fallback;
    }
    try {
      return parse.apply(scalar.getValue());
    } catch (IllegalArgumentException e) {
      problems.add(child(key), e.getMessage());
      return fallback;
    }
  }

  boolean bool(String key, boolean fallback) {
    if (!has(key)) {
      return fallback;
    }
    Node value = get(key);
    String v = text(value);
    // Only the two words: YAML 1.1 would also take yes/no/on/off, which read as strings elsewhere.
    if (!isTagged(value, Tag.BOOL) || !v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      problems.add(
          child(key),
          "must be true or false, not "
              + shown(
                  value,
                  key,
                  t -> {
                    if (!t.equals("true") && !t.equals("false")) {
                      throw new IllegalArgumentException(t);
                    }
                    return t;
                  }));
      return fallback;
    }
    return v.equalsIgnoreCase("true");
  }

  @Override
  public int integer(String key, int fallback, int min, int max) {
    if (!has(key)) {
      return fallback;
    }
    Node value = get(key);
    Long whole = isTagged(value, Tag.INT) ? parsed(value, Long::valueOf) : null;
    if (whole == null) {
      problems.add(child(key), "must be a whole number, not " + shown(value, key, Long::valueOf));
      return fallback;
    }
    long n = whole;
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
    Node value = get(key);
    Double number =
        isTagged(value, Tag.INT) || isTagged(value, Tag.FLOAT)
            ? parsed(value, Double::valueOf)
            : null;
    if (number == null || !Double.isFinite(number)) {
      problems.add(child(key), "must be a number, not " + shown(value, key, Double::valueOf));
      return fallback;
    }
    double n = number;
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
    Node v = get(key);
    List<Node> items = new ArrayList<>();
    if (v instanceof SequenceNode sequence) {
      items.addAll(sequence.getValue());
    } else if (v instanceof ScalarNode) {
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
      Node item = items.get(i);
      String itemPath = child(key) + (v instanceof SequenceNode ? "[" + i + "]" : "");
      if (!(item instanceof ScalarNode scalar)) {
        problems.add(itemPath, "must be a single value");
        ok = false;
        continue;
      }
      try {
        out.add(parse.apply(scalar.getValue()));
      } catch (IllegalArgumentException e) {
        problems.add(itemPath, e.getMessage());
        ok = false;
      }
    }
    return ok ? out : fallback;
  }

  /** The keys of this mapping, for sections whose keys are names (e.g. probes). */
  List<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    if (node == null) {
      return List.of();
    }
    for (NodeTuple t : node.getValue()) {
      if (!(t.getKeyNode() instanceof ScalarNode k)) {
        problems.add(path.isEmpty() ? "(top level)" : path, "keys must be single values");
      } else if (!keys.add(k.getValue())) {
        problems.add(child(k.getValue()), "given twice");
      }
    }
    return new ArrayList<>(keys);
  }

  /**
   * Whether {@code v} is a plain scalar that YAML reads as {@code tag} ({@code 5} is an integer,
   * {@code "5"} a string).
   */
  private static boolean isTagged(Node v, Tag tag) {
    return v instanceof ScalarNode && v.getTag().equals(tag);
  }

  /**
   * A number YAML recognised, as Java reads it; null for YAML's other spellings ({@code 1_000},
   * {@code 0x1f}, {@code .inf}), which are not taken.
   */
  private static <T> T parsed(Node value, Function<String, T> parse) {
    try {
      return parse.apply(text(value));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * A refused value as a message shows it: {@code '2.5'}, or for a value that would be right
   * without its quotes, {@code the text "20" (write it without quotes: iterations: 20)}.
   */
  private static String shown(Node value, String key, Function<String, ?> wouldParse) {
    String text = text(value);
    if (value instanceof ScalarNode scalar
        && scalar.getScalarStyle() != org.yaml.snakeyaml.DumperOptions.ScalarStyle.PLAIN) {
      try {
        wouldParse.apply(text.strip());
        return "the text \""
            + text
            + "\" (a quoted value is text; write it without quotes: "
            + key
            + ": "
            + text.strip()
            + ")";
      } catch (IllegalArgumentException e) {
        // not a number without its quotes either
      }
    }
    return "'" + text + "'";
  }

  /** A scalar's text; a list or mapping reads as text no parse accepts. */
  private static String text(Node v) {
    return v instanceof ScalarNode scalar ? scalar.getValue() : "(" + v.getNodeId() + ")";
  }

  /**
   * Every key not read is an error, with the nearest valid key when one is close ({@code unknown
   * key, did you mean 'sizes'?}) and the valid keys of this mapping.
   */
  void rejectUnknown() {
    for (String key : keys()) {
      if (!read.contains(key)) {
        problems.add(child(key), unknownKey(key, read));
      }
    }
  }

  /** E.g. {@code unknown key, did you mean 'sizes'? (valid here: enabled, every, sizes)}. */
  static String unknownKey(String key, java.util.Collection<String> valid) {
    StringBuilder m = new StringBuilder("unknown key");
    ClosestName.of(key, valid)
        .ifPresent(best -> m.append(", did you mean '").append(best).append("'?"));
    if (!valid.isEmpty()) {
      m.append(" (valid here: ").append(String.join(", ", new java.util.TreeSet<>(valid)));
      m.append(')');
    }
    return m.toString();
  }
}
