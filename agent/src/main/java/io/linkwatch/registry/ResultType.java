package io.linkwatch.registry;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.metrics.families.MetricWriter;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.probe.result.Measurement;

/**
 * A measurement type a probe produces, with the writer that turns it into series and, for a device
 * pair's figure, the title of the status page's matrix of it.
 *
 * @param matrixTitle the title of the page's device-pair matrix of these figures, e.g. {@code
 *     Device to device (p2p), GB/s}; null when they are not shown as one
 */
public record ResultType<M extends Measurement>(
    Class<M> type, MetricWriter<M> writer, String matrixTitle) {
  public ResultType {
    if (matrixTitle != null && !Judged.class.isAssignableFrom(type)) {
      // the matrix places a figure by its judged pair (device, peer, both ways)
      throw new IllegalArgumentException(type.getSimpleName() + " is not judged: no matrix of it");
    }
  }

  public static <M extends Measurement> ResultType<M> of(Class<M> type, MetricWriter<M> writer) {
    return new ResultType<>(type, writer, null);
  }

  /** The same, shown on the status page as a device-pair matrix titled {@code title}. */
  public ResultType<M> inMatrix(String title) {
    return new ResultType<>(type, writer, title);
  }

  void write(Measurement m, MetricFamilies families) {
    writer.write(type.cast(m), families);
  }
}
