package io.linkwatch.probe.result;

/**
 * Median host-device copy bandwidth. {@code memNode} is where the buffer's pages really were, or
 * {@code unknown} when that could not be verified; {@code placementMethod} says how it was found.
 */
public record HostTransferBandwidth(
    int device,
    String direction,
    String memory,
    int cpuNode,
    String memNode,
    long sizeBytes,
    double bytesPerSecond,
    String placementMethod)
    implements Measurement {
  @Override
  public String summary() {
    return toString();
  }
}
