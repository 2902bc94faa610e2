package io.linkwatch.history;

import io.linkwatch.probe.collective.CollectiveBusBandwidth;
import io.linkwatch.probe.collective.CollectiveLatency;
import io.linkwatch.probe.devicememory.DeviceMemoryBandwidth;
import io.linkwatch.probe.hosttransfer.HostTransferBandwidth;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.p2p.P2pBidirectionalBandwidth;
import io.linkwatch.probe.result.Measurement;

/**
 * Which figures of a result are charted: the ones a person compares over a day (bandwidths and the
 * collectives' median latency), not inventory (device and link info) or page shares. A host
 * transfer figure is charted as {@code <memory>_<direction>}, e.g. {@code pinned_h2d}.
 */
final class ChartedFigures {
  /** Takes each charted figure of a measurement. */
  interface Sink {
    void accept(String figure, long sizeBytes, String unit, double value);
  }

  private ChartedFigures() {}

  static void of(Measurement m, Sink sink) {
    if (m instanceof P2pBandwidth p) {
      sink.accept("bandwidth", p.sizeBytes(), SeriesId.BYTES_PER_SECOND, p.bytesPerSecond());
    } else if (m instanceof P2pBidirectionalBandwidth p) {
      sink.accept("bandwidth", p.sizeBytes(), SeriesId.BYTES_PER_SECOND, p.bytesPerSecond());
    } else if (m instanceof HostTransferBandwidth h) {
      sink.accept(
          h.memory() + "_" + h.direction(),
          h.sizeBytes(),
          SeriesId.BYTES_PER_SECOND,
          h.bytesPerSecond());
    } else if (m instanceof DeviceMemoryBandwidth d) {
      sink.accept("bandwidth", d.sizeBytes(), SeriesId.BYTES_PER_SECOND, d.bytesPerSecond());
    } else if (m instanceof CollectiveLatency c) {
      sink.accept("latency_p50", c.sizeBytes(), SeriesId.SECONDS, c.p50Seconds());
    } else if (m instanceof CollectiveBusBandwidth c) {
      sink.accept("bus_bandwidth", c.sizeBytes(), SeriesId.BYTES_PER_SECOND, c.busBytesPerSecond());
    }
  }
}
