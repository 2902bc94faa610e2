package io.linkwatch.metrics.families;

import io.linkwatch.probe.result.Measurement;

/**
 * Turns one kind of measurement into its series. Each probe's descriptor pairs every measurement
 * type it produces with its writer, so a type without a writer cannot be registered (see {@code
 * ProbeKind}).
 */
@FunctionalInterface
public interface MetricWriter<M extends Measurement> {
  void write(M measurement, MetricFamilies families);
}
