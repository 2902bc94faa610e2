package io.linkwatch.probe.result;

/**
 * A measurement whose figures the agent's history keeps and the status page charts. Each result
 * type says itself what it charts, so the history names no probe. A p2p figure, for example, charts
 * {@code ("bandwidth", 268435456, "bytes_per_second", 1.55e11)}; a host transfer figure names its
 * figure after the memory and direction, e.g. {@code pinned_h2d}.
 */
public interface Charted extends Measurement {
  /** The units of charted figures, as the metrics' base units. */
  String BYTES_PER_SECOND = "bytes_per_second";

  String SECONDS = "seconds";

  /** Takes each charted figure of a measurement. */
  @FunctionalInterface
  interface Sink {
    void accept(String figure, long sizeBytes, String unit, double value);
  }

  /** Hands {@code sink} every figure of this measurement that is charted. */
  void chart(Sink sink);
}
