package io.linkwatch.probe.result;

import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import java.util.Locale;

/** A collective's algorithm and bus bandwidth, as nccl-tests define them for it. */
public interface CollectiveBusBandwidth extends Charted {
  String devices();

  long sizeBytes();

  double algBytesPerSecond();

  double busBytesPerSecond();

  /** E.g. {@code 0,1 1GiB busbw 105.1GB/s algbw 105.1GB/s}. */
  @Override
  default String summary() {
    return String.format(
        Locale.ROOT,
        "%s %s busbw %sGB/s algbw %sGB/s",
        devices(),
        ByteSize.format(sizeBytes()),
        Gbps.format(busBytesPerSecond()),
        Gbps.format(algBytesPerSecond()));
  }

  @Override
  default void chart(Sink sink) {
    sink.accept("bus_bandwidth", sizeBytes(), BYTES_PER_SECOND, busBytesPerSecond());
  }
}
