package io.linkwatch.verdict;

import io.linkwatch.registry.ProbeKind;

/**
 * The part of a device's connections a finding concerns, as the {@code subsystem} label of {@code
 * linkwatch_device_health} (in the manner of dcgm-exporter's health watches, one per subsystem):
 * its links to other devices, its PCIe path to the host, its copies to and from host memory, and
 * its own network ports.
 */
public enum Subsystem {
  LINKS,
  PCIE,
  HOST_TRANSFER,
  NIC;

  /** The label value, e.g. {@code host_transfer}: the name in lower case. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The subsystem a probe's figures measure; null for a probe that measures none of them. */
  static Subsystem ofProbe(String probe) {
    if (ProbeKind.P2P.id().equals(probe)) {
      return LINKS;
    }
    return ProbeKind.HOST_TRANSFER.id().equals(probe) ? HOST_TRANSFER : null;
  }
}
