package io.linkwatch.probe.hosttransfer;

import io.linkwatch.probe.result.HostPagePlacement;
import java.util.Locale;

/**
 * Share of a host buffer's pages found on {@code memNode}, one per node that holds pages, e.g.
 * {@code HostBufferPages[device=0, memory=pageable, cpuNode=4, memNode=5, ratio=1.0]} for seed
 * 004's node 4, whose first-touched pages all landed on node 5. Only measured placements produce
 * these: an unknown placement produces none.
 */
public record HostBufferPages(int device, String memory, int cpuNode, int memNode, double ratio)
    implements HostPagePlacement {
  /** E.g. {@code dev0 pageable cpu4 mem5 pages 1.00}. */
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT, "dev%d %s cpu%d mem%d pages %.2f", device, memory, cpuNode, memNode, ratio);
  }
}
