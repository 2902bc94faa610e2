package io.linkwatch.probe;

import java.util.List;
import java.util.function.Function;

/**
 * Where a probe's settings are read from: the probe's mapping in the config file ({@code
 * probes.p2p}) or the options of its CLI command ({@code linkwatch probe p2p}). Each probe has one
 * reader over this interface, so both check the same things and say the same words; only the key's
 * spelling in the message differs ({@code probes.p2p.iterations: ...} or {@code --iterations:
 * ...}).
 *
 * <p>Every method reports a bad value as a problem under its key and returns the fallback, so one
 * pass finds every mistake.
 */
public interface SettingsSource {
  /** A single value read with {@code parse} (whose IllegalArgumentException is the reason). */
  <T> T scalar(String key, T fallback, Function<String, T> parse);

  /** A whole number between {@code min} and {@code max}. */
  int integer(String key, int fallback, int min, int max);

  /** A list of values, each read with {@code parse}; one value is a one-element list. */
  <T> List<T> list(String key, List<T> fallback, Function<String, T> parse, boolean allowEmpty);

  /** A problem with the value under {@code key} that no single-value parse can see. */
  void problem(String key, String reason);
}
