package io.linkwatch.probe;

import io.linkwatch.util.ByteSize;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * Wraps a parse so that a value seen before in the same list is an error, e.g. {@code device 0 is
 * listed twice}: a repeated device, node or pair is a mistake, in the config file as on the command
 * line.
 */
public final class Distinct {
  private Distinct() {}

  public static <T> Function<String, T> of(Function<String, T> parse, String what) {
    return of(parse, what, String::valueOf);
  }

  /** {@code show} writes the value as the message gives it. */
  public static <T> Function<String, T> of(
      Function<String, T> parse, String what, Function<T, String> show) {
    Set<T> seen = new HashSet<>();
    return text -> {
      T value = parse.apply(text);
      if (!seen.add(value)) {
        throw new IllegalArgumentException(what + " " + show.apply(value) + " is listed twice");
      }
      return value;
    };
  }

  /** Sizes: {@code size 64MiB is listed twice}. */
  public static Function<String, Long> sizes(Function<String, Long> parse) {
    return of(parse, "size", ByteSize::format);
  }

  /** Device ids: {@code device 0 is listed twice}. */
  public static Function<String, Integer> devices() {
    return of(DeviceIds::parse, "device");
  }
}
