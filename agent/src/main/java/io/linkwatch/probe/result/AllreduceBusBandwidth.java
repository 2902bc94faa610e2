package io.linkwatch.probe.result;

/** Algorithm and bus bandwidth (busbw = algbw * 2(n-1)/n, as nccl-tests define it). */
public record AllreduceBusBandwidth(
    String devices, long sizeBytes, double algBytesPerSecond, double busBytesPerSecond)
    implements Measurement {
  /** E.g. {@code 0,1 1GiB busbw 105.1GB/s algbw 105.1GB/s}. */
  @Override
  public String summary() {
    return String.format(
        java.util.Locale.ROOT,
        "%s %s busbw %.1fGB/s algbw %.1fGB/s",
        devices,
        io.linkwatch.util.ByteSize.format(sizeBytes),
        busBytesPerSecond / 1e9,
        algBytesPerSecond / 1e9);
  }
}
