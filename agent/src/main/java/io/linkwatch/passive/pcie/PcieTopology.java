package io.linkwatch.passive.pcie;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The path from a PCI function up to its root port, read from where sysfs places the function in
 * the device tree. The target of {@code /sys/bus/pci/devices/0000:05:00.0},
 *
 * <pre>
 * ../../../devices/pci0000:00/0000:00:02.5/0000:04:00.0/0000:05:00.0
 * </pre>
 *
 * gives {@code [0000:05:00.0, 0000:04:00.0, 0000:00:02.5]}: the device, the bridge above it, and
 * the root port, which is the first function below the host bridge {@code pci0000:00}. A device
 * directly below its host bridge is a path of one.
 */
public final class PcieTopology {
  // The kernel names a function "%04x:%02x:%02x.%d" and a host bridge "pci%04x:%02x"; a domain
  // above 0xffff (Intel VMD puts its devices in 10000 and up) prints with more digits.
  private static final Pattern FUNCTION =
      Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]", Pattern.CASE_INSENSITIVE);
  private static final Pattern HOST_BRIDGE =
      Pattern.compile("pci[0-9a-f]{4,8}:[0-9a-f]{2}", Pattern.CASE_INSENSITIVE);

  private PcieTopology() {}

  /**
   * The PCI addresses from the device (first) up to its root port (last), lower case, from the
   * target of the device's {@code bus/pci/devices} link. Components that are not PCI addresses
   * (platform or ACPI nodes above the host bridge) are skipped.
   *
   * <p>When the path crosses more than one host bridge, as below an Intel VMD controller ({@code
   * .../pci0000:00/0000:00:0e.0/pci10000:e0/10000:e0:1a.0/10000:e1:00.0}), the path ends at the
   * root port below the last one: the functions above it are not links this device's traffic trains
   * on (the VMD controller is an endpoint of the outer domain).
   */
  public static List<String> pathToRoot(String linkTarget) {
    List<String> downward = new ArrayList<>();
    for (String component : linkTarget.split("/")) {
      if (HOST_BRIDGE.matcher(component).matches()) {
        downward.clear();
      } else if (FUNCTION.matcher(component).matches()) {
        downward.add(component.toLowerCase(Locale.ROOT));
      }
    }
    Collections.reverse(downward);
    return List.copyOf(downward);
  }

  /**
   * The address in the lower-case form sysfs uses, or empty for text that is not one (which then
   * cannot name a sysfs entry, and must not be resolved as a path).
   */
  static Optional<String> normalizeAddress(String address) {
    return FUNCTION.matcher(address).matches()
        ? Optional.of(address.toLowerCase(Locale.ROOT))
        : Optional.empty();
  }

  /** The role of the hop at {@code index} on a path of {@code size} hops, device first. */
  static PcieRole role(int index, int size) {
    if (index == 0) {
      return PcieRole.DEVICE;
    }
    return index == size - 1 ? PcieRole.ROOT_PORT : PcieRole.BRIDGE;
  }
}
