package io.linkwatch.probe.result;

/** Device-local copy bandwidth: bytes copied per second, the reference links are compared to. */
public record DeviceMemoryBandwidth(int device, long sizeBytes, double bytesPerSecond)
    implements Measurement {
  @Override
  public String summary() {
    return toString();
  }
}
