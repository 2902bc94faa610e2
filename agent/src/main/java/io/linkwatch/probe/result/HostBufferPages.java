package io.linkwatch.probe.result;

/** Share of a host buffer's pages found on {@code memNode}. */
public record HostBufferPages(int device, String memory, int cpuNode, int memNode, double ratio)
    implements Measurement {
  @Override
  public String summary() {
    return toString();
  }
}
