package io.linkwatch.passive.pcie;

/**
 * Where a PCI function sits on the path from a device up to its root port, as the {@code role}
 * label of the PCIe series: {@code role="device"} for the device's own function, {@code
 * role="bridge"} for each switch port on the way, {@code role="root_port"} for the CPU's port at
 * the top.
 */
public enum PcieRole {
  DEVICE("device"),
  BRIDGE("bridge"),
  ROOT_PORT("root_port");

  private final String label;

  PcieRole(String label) {
    this.label = label;
  }

  /** The metric label value, e.g. {@code "root_port"}. */
  public String label() {
    return label;
  }
}
