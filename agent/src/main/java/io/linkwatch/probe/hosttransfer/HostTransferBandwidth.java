package io.linkwatch.probe.hosttransfer;

import io.linkwatch.probe.result.Charted;
import io.linkwatch.probe.result.HostCopy;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import java.util.Locale;

/**
 * Median host-device copy bandwidth. {@code memNode} is where the buffer's pages really were, or
 * {@code unknown} when that could not be verified; {@code placementMethod} says how it was found
 * ({@code move_pages}, {@code numa_maps} or {@code unknown}). {@code allocation} says how the host
 * buffer was made: {@code mmap} (pageable, first-touched by the probe's pinned thread), {@code
 * aclrtHostRegisterV2} (the same kind of first-touched pages, then page-locked) or {@code
 * aclrtMallocHost} (page-locked memory placed by the driver).
 *
 * <p>Example: {@code HostTransferBandwidth[device=0, direction=h2d, memory=pageable, cpuNode=4,
 * memNode=5, sizeBytes=67108864, bytesPerSecond=1.86e10, placementMethod=numa_maps,
 * allocation=mmap]}.
 */
public record HostTransferBandwidth(
    int device,
    String direction,
    String memory,
    int cpuNode,
    String memNode,
    long sizeBytes,
    double bytesPerSecond,
    String placementMethod,
    String allocation)
    implements Charted, Judged, HostCopy {
  @Override
  public Figure judged() {
    String over = memory + " " + direction;
    return new Figure(
        device, -1, over, sizeBytes, bytesPerSecond, over + " " + Judged.mib(sizeBytes), false);
  }

  /** Without the allocation (kept for callers written before it was recorded). */
  public HostTransferBandwidth(
      int device,
      String direction,
      String memory,
      int cpuNode,
      String memNode,
      long sizeBytes,
      double bytesPerSecond,
      String placementMethod) {
    this(
        device,
        direction,
        memory,
        cpuNode,
        memNode,
        sizeBytes,
        bytesPerSecond,
        placementMethod,
        "");
  }

  public HostTransferBandwidth {
    allocation = allocation == null ? "" : allocation;
  }

  /** E.g. {@code dev0 h2d pageable cpu4 mem5 64MiB 18.6GB/s (numa_maps, mmap)}. */
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT,
        "dev%d %s %s cpu%d mem%s %s %sGB/s (%s%s)",
        device,
        direction,
        memory,
        cpuNode,
        memNode,
        ByteSize.format(sizeBytes),
        Gbps.format(bytesPerSecond),
        placementMethod,
        allocation.isEmpty() ? "" : ", " + allocation);
  }

  /** Charted as {@code <memory>_<direction>}, e.g. {@code pinned_h2d}. */
  @Override
  public void chart(Sink sink) {
    sink.accept(memory() + "_" + direction(), sizeBytes(), BYTES_PER_SECOND, bytesPerSecond());
  }
}
