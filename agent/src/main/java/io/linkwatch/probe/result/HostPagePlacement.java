package io.linkwatch.probe.result;

/**
 * The share of a host buffer's pages found on one NUMA node, for a buffer a {@link HostCopy} was
 * measured from: the evidence of its placement, shown beside it.
 */
public interface HostPagePlacement extends Measurement {
  int device();

  String memory();

  int cpuNode();

  int memNode();

  double ratio();
}
