package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples of a {@code /metrics} text, by series as exposed: name and labels in order. */
public final class Exposition {
  private Exposition() {}

  /** The value of {@code series}, e.g. {@code linkwatch_up{device="0"}}; empty when absent. */
  public static OptionalDouble sample(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
    return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1))) : OptionalDouble.empty();
  }

  /** The value of {@code series}, which must be there. */
  public static double value(String metrics, String series) {
    OptionalDouble v = sample(metrics, series);
    assertThat(v).as("series %s in /metrics", series).isPresent();
    return v.getAsDouble();
  }
}
