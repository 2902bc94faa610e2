package io.linkwatch.probe.result;

import io.linkwatch.util.ByteSize;
import java.util.Locale;

/**
 * Allgather algorithm bandwidth (gathered total / time) and bus bandwidth (busbw = algbw * (n-1)/n,
 * as nccl-tests define it).
 */
public record AllgatherBusBandwidth(
    String devices, long sizeBytes, double algBytesPerSecond, double busBytesPerSecond)
    implements Measurement {
  /** E.g. {@code 0,1 256MiB busbw 140.2GB/s algbw 280.4GB/s}. */
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%s %s busbw %.1fGB/s algbw %.1fGB/s",
        devices,
        ByteSize.format(sizeBytes),
        busBytesPerSecond / 1e9,
        algBytesPerSecond / 1e9);
  }
}
