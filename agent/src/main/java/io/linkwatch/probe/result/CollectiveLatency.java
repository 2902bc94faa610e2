package io.linkwatch.probe.result;

import io.linkwatch.util.ByteSize;
import java.util.Locale;

/**
 * A collective's time over a run's iterations (the slowest rank per iteration): the median, the
 * 99th percentile, and the count and sum of the iteration times, exposed together as a summary.
 */
public interface CollectiveLatency extends Charted {
  /** The group, e.g. {@code 0,1}. */
  String devices();

  long sizeBytes();

  double p50Seconds();

  double p99Seconds();

  long iterations();

  double sumSeconds();

  /** E.g. {@code 0,1 1KiB p50 272.7us p99 281.0us}. */
  @Override
  default String summary() {
    return String.format(
        Locale.ROOT,
        "%s %s p50 %.1fus p99 %.1fus",
        devices(),
        ByteSize.format(sizeBytes()),
        p50Seconds() * 1e6,
        p99Seconds() * 1e6);
  }

  /**
   * Judged by its median against the group's first rank's product; a group with no device named
   * cannot be, and is judged as NaN.
   */
  default Judged.Figure judged() {
    String[] ranks = devices().split(",");
    long size = sizeBytes();
    String kib = size % 1024 == 0 ? size / 1024 + "KiB" : size + "B";
    boolean named = !ranks[0].isBlank();
    return new Judged.Figure(
        named ? Integer.parseInt(ranks[0].strip()) : -1,
        -1,
        ranks.length + " ranks",
        size,
        named ? p50Seconds() : Double.NaN,
        kib + " p50",
        false);
  }

  @Override
  default void chart(Sink sink) {
    sink.accept("latency_p50", sizeBytes(), SECONDS, p50Seconds());
  }
}
