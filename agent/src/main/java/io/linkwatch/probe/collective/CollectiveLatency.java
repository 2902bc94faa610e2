package io.linkwatch.probe.collective;

import io.linkwatch.probe.result.Charted;
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

  @Override
  default void chart(Sink sink) {
    sink.accept("latency_p50", sizeBytes(), SECONDS, p50Seconds());
  }
}
