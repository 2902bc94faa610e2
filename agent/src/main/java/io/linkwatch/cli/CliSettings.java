package io.linkwatch.cli;

import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A probe's settings as its command line gives them: the option values as typed, read by the same
 * reader as the config file, so both accept the same values and say the same words. Problems name
 * the option: {@code --iterations: must be between 1 and 100000, not 0}.
 */
final class CliSettings implements SettingsSource {
  /** Option values as typed, by config key; a list option's values split at commas. */
  private final Map<String, List<String>> given;

  private final List<String> problems = new ArrayList<>();

  CliSettings(Map<String, List<String>> given) {
    this.given = Map.copyOf(given);
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
    problems.add(SettingOption.cliName(key) + ": " + reason);
  }

  /** Throws every problem found so far, one line each, as a usage error. */
  void throwIfProblems() {
    if (!problems.isEmpty()) {
      throw new UsageException(String.join(System.lineSeparator() + "linkwatch: ", problems));
    }
  }
}
