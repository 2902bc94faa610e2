package io.linkwatch.registry;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.metrics.families.MetricWriter;
import io.linkwatch.probe.result.Measurement;

/** A measurement type a probe produces, with the writer that turns it into series. */
public record ResultType<M extends Measurement>(Class<M> type, MetricWriter<M> writer) {
  public static <M extends Measurement> ResultType<M> of(Class<M> type, MetricWriter<M> writer) {
    return new ResultType<>(type, writer);
  }

  void write(Measurement m, MetricFamilies families) {
    writer.write(type.cast(m), families);
  }
}
