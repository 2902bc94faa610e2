package io.linkwatch.runtime;

import java.util.Locale;
import java.util.Optional;

/**
 * The kind of path between two devices, as npu-smi and AscendCL (and, for NVLink and NODE, NVML and
 * nvidia-smi) name it. {@link #UNKNOWN} is what a pair gets when no topology source answers.
 */
public enum LinkType {
  SELF("X", 0),
  HCCS("HCCS", 0x01),
  PIX("PIX", 0x02),
  PXB("PXB", 0),
  PHB("PHB", 0x08),
  SYS("SYS", 0x10),
  SIO("SIO", 0x20),
  HCCS_SW("HCCS_SW", 0x40),
  UB("UB", 0),
  /** NVIDIA NVLink, direct or through NVSwitch. */
  NVLINK("NVLINK", 0),
  /** PCIe through host bridges within one NUMA node (NVML's NODE level). */
  NODE("NODE", 0),
  NA("NA", 0),
  UNKNOWN("unknown", 0);

  private final String label;
  private final long aclTopologyBit;

  LinkType(String label, long aclTopologyBit) {
    this.label = label;
    this.aclTopologyBit = aclTopologyBit;
  }

  /** The text used in metric labels and tables, e.g. {@code SIO}. */
  public String label() {
    return label;
  }

  /** Maps an npu-smi topology token; tokens this version does not know are empty. */
  public static Optional<LinkType> fromToken(String token) {
    String t = token.strip().toUpperCase(Locale.ROOT);
    for (LinkType type : values()) {
      if (type != UNKNOWN && type.label.equals(t)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /**
   * Maps an {@code aclrtGetDevicesTopo} value (ACL_RT_DEVS_TOPOLOGY_* bits). When several bits are
   * set the fastest kind wins, in the order SIO, HCCS, HCCS_SW, PIX, PHB, SYS.
   */
  public static LinkType fromAclTopology(long value) {
    for (LinkType type : new LinkType[] {SIO, HCCS, HCCS_SW, PIX, PHB, SYS}) {
      if ((value & type.aclTopologyBit) != 0) {
        return type;
      }
    }
    return UNKNOWN;
  }

  /**
   * Maps an {@code nvmlGpuTopologyLevel_t}: the closest common ancestor of two GPUs on PCIe.
   * INTERNAL (one board, several GPUs) and SINGLE (one PCIe switch) are both PIX.
   */
  public static LinkType fromNvmlTopologyLevel(int level) {
    return switch (level) {
      case 0, 10 -> PIX;
      case 20 -> PXB;
      case 30 -> PHB;
      case 40 -> NODE;
      case 50 -> SYS;
      default -> UNKNOWN;
    };
  }
}
