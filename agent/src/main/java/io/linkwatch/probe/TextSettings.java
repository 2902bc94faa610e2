package io.linkwatch.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A probe's settings given as text by key, as a command line's options or a check level's list
 * write them, read by the same reader as the config file, so all accept the same values and say the
 * same words.
 */
public class TextSettings implements SettingsSource {
  /** Option values as typed, by config key; a list option's values split at commas. */
  private final Map<String, List<String>> given;

  private final Function<String, String> keyName;
  private final List<String> problems = new ArrayList<>();

  /**
   * @param given the values by config key, as typed
   * @param keyName how a problem names a key ({@code --sizes} on a command line)
   */
  public TextSettings(Map<String, List<String>> given, Function<String, String> keyName) {
    this.given = Map.copyOf(given);
    this.keyName = keyName;
  }

  @Override
  public <T> T scalar(String key, T fallback, Function<String, T> parse) {
    List<String> values = given.get(key);
    if (values == null) {
      return fallback;
    }
    try {
      return parse.apply(values.get(0));
    } catch (IllegalArgumentException e) {
      problem(key, e.getMessage());
      return fallback;
    }
  }

  @Override
  public int integer(String key, int fallback, int min, int max) {
    List<String> values = given.get(key);
    if (values == null) {
      return fallback;
    }
    String text = values.get(0).strip();
    long n;
    try {
      n = Long.parseLong(text);
    } catch (NumberFormatException e) {
      problem(key, "must be a whole number, not '" + text + "'");
      return fallback;
    }
    if (n < min || n > max) {
      problem(key, "must be between " + min + " and " + max + ", not " + n);
      return fallback;
    }
    return (int) n;
  }

  @Override
  public <T> List<T> list(
      String key, List<T> fallback, Function<String, T> parse, boolean allowEmpty) {
    List<String> values = given.get(key);
    if (values == null) {
      return fallback;
    }
    List<String> items = values.stream().filter(v -> !v.isBlank()).toList();
    if (!items.isEmpty() && items.size() < values.size()) {
      // 64MiB,,1GiB: an empty item is a slip (a size or device left out), not nothing.
      problem(
          key,
          "an empty item in '"
              + String.join(",", values)
              + "': remove the extra comma or put the value that is missing");
      return fallback;
    }
    if (items.isEmpty()) {
      if (!allowEmpty) {
        problem(key, "must not be empty");
      }
      return allowEmpty ? List.of() : fallback;
    }
    List<T> out = new ArrayList<>();
    boolean ok = true;
    for (String item : items) {
      try {
        out.add(parse.apply(item));
      } catch (IllegalArgumentException e) {
        problem(key, e.getMessage());
        ok = false;
      }
    }
    return ok ? out : fallback;
  }

  @Override
  public void problem(String key, String reason) {
    problems.add(keyName.apply(key) + ": " + reason);
  }

  /** Every problem found so far, one line each, e.g. {@code --iterations: must be ...}. */
  public List<String> problems() {
    return List.copyOf(problems);
  }
}
