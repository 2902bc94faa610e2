package io.linkwatch.probe.result;

/** Algorithm and bus bandwidth (busbw = algbw * 2(n-1)/n, as nccl-tests define it). */
public record AllreduceBusBandwidth(
    String devices, long sizeBytes, double algBytesPerSecond, double busBytesPerSecond)
    implements Measurement {
  @Override
  public String summary() {
    return toString();
  }
}
