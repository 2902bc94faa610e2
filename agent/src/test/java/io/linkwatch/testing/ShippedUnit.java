package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line a shipped systemd unit runs: its {@code ExecStart=} (continuation lines joined)
 * with the {@code ${NAME}} and {@code $NAME} references filled from the unit's shipped environment
 * file ({@code NAME=value} lines, as {@code /etc/default/...}), each value overridable. A live test
 * starts the deployment's binaries with the flags that ship, and replaces only addresses, paths and
 * the intervals a test shortens ({@link #withFlags}).
 */
public final class ShippedUnit {
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");

  private ShippedUnit() {}

  /** The {@code NAME=value} lines of an environment file, quotes removed, comments skipped. */
  public static Map<String, String> environment(Path file) throws Exception {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      int eq = l.indexOf('=');
      assertThat(eq).as(file + ": not NAME=value: " + line).isPositive();
      String value = l.substring(eq + 1);
      if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
        value = value.substring(1, value.length() - 1);
      }
      env.put(l.substring(0, eq), value);
    }
    return env;
  }

  /**
   * {@code unit}'s ExecStart as arguments, every reference filled from {@code env}; a reference
   * {@code env} lacks fails the test (the shipped pair of unit and environment file disagree). A
   * bare {@code $NAME} is split on spaces, as systemd does; {@code ${NAME}} stays one word.
   */
  public static List<String> execStart(Path unit, Map<String, String> env) throws Exception {
    StringBuilder joined = null;
    for (String line : Files.readAllLines(unit)) {
      if (joined == null && line.startsWith("ExecStart=")) {
        joined = new StringBuilder(line.substring("ExecStart=".length()));
      } else if (joined != null) {
        joined.append(' ').append(line.strip());
      } else {
        continue;
      }
      if (!joined.toString().endsWith("\\")) {
        break;
      }
      joined.setLength(joined.length() - 1);
    }
    assertThat(joined).as(unit + " has an ExecStart= line").isNotNull();
    List<String> args = new ArrayList<>();
    for (String word : joined.toString().strip().split("\\s+")) {
      Matcher bare = Pattern.compile("\\$(\\w+)").matcher(word);
      if (bare.matches()) {
        String value = env.get(bare.group(1));
        assertThat(value).as(unit + ": $" + bare.group(1) + " is set").isNotNull();
        args.addAll(List.of(value.strip().split("\\s+")));
        continue;
      }
      Matcher m = REFERENCE.matcher(word);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String name = m.group(1) != null ? m.group(1) : m.group(2);
        String value = env.get(name);
        assertThat(value).as(unit + ": ${" + name + "} is set").isNotNull();
        m.appendReplacement(out, Matcher.quoteReplacement(value));
      }
      m.appendTail(out);
      args.add(out.toString());
    }
    return args;
  }

  /**
   * {@code args} with the value of each {@code -flag=value} named in {@code flags} replaced, and
   * the flags {@code args} lacks appended. Replacing a flag the command does not have is how a test
   * adds one, so a shipped flag that a test overrides is visible in the test's own text.
   */
  public static List<String> withFlags(List<String> args, Map<String, String> flags) {
    List<String> out = new ArrayList<>();
    Map<String, String> left = new LinkedHashMap<>(flags);
    for (String a : args) {
      int eq = a.indexOf('=');
      String name = eq > 0 ? a.substring(0, eq) : a;
      if (left.containsKey(name)) {
        String v = left.remove(name);
        out.add(v.isEmpty() ? name : name + "=" + v);
      } else {
        out.add(a);
      }
    }
    left.forEach((name, v) -> out.add(v.isEmpty() ? name : name + "=" + v));
    return out;
  }
}
