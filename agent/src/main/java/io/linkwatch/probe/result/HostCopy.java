package io.linkwatch.probe.result;

/**
 * A copy between host memory and a device, from a CPU on one NUMA node: the shape the status page's
 * host table and {@code compare} read, whatever probe measured it. {@code memNode} is where the
 * buffer's pages really were, or {@code unknown}; {@code placementMethod} says how it was found
 * ({@code move_pages}, {@code numa_maps} or {@code unknown}).
 */
public interface HostCopy extends Measurement {
  /** Host to device. */
  String H2D = "h2d";

  /** Device to host. */
  String D2H = "d2h";

  /** Page-locked host memory. */
  String PINNED = "pinned";

  /** Ordinary host memory. */
  String PAGEABLE = "pageable";

  int device();

  /** {@link #H2D} or {@link #D2H}. */
  String direction();

  /** {@link #PINNED} or {@link #PAGEABLE}. */
  String memory();

  int cpuNode();

  String memNode();

  long sizeBytes();

  double bytesPerSecond();

  String placementMethod();

  /**
   * Whether the probe found where the buffer's pages were; {@code unknown} means they were not
   * checked and the figure's NUMA claim is unproven.
   */
  default boolean placementVerified() {
    return placementMethod() != null
        && !"unknown".equals(placementMethod())
        && memNode() != null
        && !"unknown".equals(memNode());
  }
}
