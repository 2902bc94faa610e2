package io.linkwatch.passive;

import io.linkwatch.passive.pcie.PcieHop;
import java.util.List;

/**
 * What passive watching last knew of one device from one source: the last read's result and, from
 * the last read that succeeded, its links. A failed read clears the links (no series rather than
 * stale ones); a read skipped for an active probe keeps them, as counters a few seconds old are
 * still true.
 *
 * @param lastReadMillis when the last read ended (or was skipped)
 * @param lastSuccessMillis when a read last succeeded, 0 for never
 * @param skippedBecause why the last read was skipped, or null
 * @param pcie the PCIe hops from sysfs, device first (sysfs source only)
 */
public record DeviceState(
    int device,
    PassiveSource source,
    ReadResult lastResult,
    long lastReadMillis,
    long lastSuccessMillis,
    String error,
    String failedCall,
    String skippedBecause,
    List<String> unsupported,
    List<LinkState> links,
    Long pcieReplays,
    String pciAddress,
    List<PcieHop> pcie) {
  public DeviceState {
    unsupported = List.copyOf(unsupported);
    links = List.copyOf(links);
    pcie = List.copyOf(pcie);
  }
}
