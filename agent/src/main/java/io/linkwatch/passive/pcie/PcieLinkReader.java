package io.linkwatch.passive.pcie;

import io.linkwatch.host.HostPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Reads the PCIe link state and AER totals of a device and of every bridge up to its root port from
 * sysfs. For a GPU two switch levels below its root port, {@code read("0000:1b:00.0")} gives five
 * hops:
 *
 * <pre>
 * 0000:1b:00.0  device     32 GT/s x16 of 32 GT/s x16   aer {correctable=0, nonfatal=0, fatal=0}
 * 0000:1a:00.0  bridge     32 GT/s x16 of 32 GT/s x16   aer {...}
 * 0000:19:00.0  bridge     ...
 * 0000:18:00.0  bridge     ...
 * 0000:15:01.0  root_port  32 GT/s x16 of 32 GT/s x16   aer {correctable=4, nonfatal=0, fatal=0}
 * </pre>
 *
 * Every hop is read, not only the device: a link that trained down shows at both of its ends, but a
 * bad link further up (a switch's uplink) shows only at the hops above the device, and AER errors
 * of an endpoint are often counted at its link partner.
 *
 * <p>The hops come from the target of {@code bus/pci/devices/<address>} ({@link
 * PcieTopology#pathToRoot}); the files are read in the directories that target points into. Where
 * that entry is a plain directory instead of a link (a flat fixture, an odd container mount), the
 * device is read alone. Each file is read on its own: a missing or unreadable file costs its value
 * only.
 */
public final class PcieLinkReader {
  private final Path devices;

  public PcieLinkReader(HostPaths paths) {
    this.devices = paths.sysfs().resolve("bus/pci/devices");
  }

  /**
   * The hops from the device (first, {@link PcieRole#DEVICE}) up to its root port (last, {@link
   * PcieRole#ROOT_PORT}), or an empty list when sysfs has no such function.
   *
   * @param pciAddress e.g. {@code 0000:3b:00.0}; upper case is accepted, the hops are lower case
   */
  public List<PcieHop> read(String pciAddress) {
    Optional<String> address = PcieTopology.normalizeAddress(pciAddress);
    if (address.isEmpty()) {
      return List.of(); // not an address, so no entry; and never a path to resolve
    }
    Path entry = devices.resolve(address.get());
    if (!Files.isDirectory(entry)) {
      return List.of();
    }
    List<Path> dirs = hopDirectories(entry, address.get());
    List<PcieHop> hops = new ArrayList<>(dirs.size());
    for (int i = 0; i < dirs.size(); i++) {
      String hopAddress = i == 0 ? address.get() : name(dirs.get(i));
      hops.add(readHop(hopAddress, PcieTopology.role(i, dirs.size()), dirs.get(i)));
    }
    return List.copyOf(hops);
  }

  // The directory of each hop, device first. Anything unexpected about the link falls back to the
  // device alone, which is still worth reading.
  private static List<Path> hopDirectories(Path entry, String address) {
    Path target;
    try {
      target = Files.readSymbolicLink(entry);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return List.of(entry); // NotLinkException among them: a plain directory
    }
    List<String> addresses = PcieTopology.pathToRoot(target.toString());
    if (addresses.isEmpty() || !addresses.get(0).equals(address)) {
      return List.of(entry);
    }
    // The target is relative to the link's directory ("../../../devices/pci0000:00/..."); resolved
    // against it, the hops are the device's directory and its ancestors of the same names.
    List<Path> dirs = new ArrayList<>(addresses.size());
    Path dir = entry.getParent().resolve(target).normalize();
    while (dir != null && dirs.size() < addresses.size()) {
      if (name(dir).equals(addresses.get(dirs.size()))) {
        dirs.add(dir);
      }
      dir = dir.getParent();
    }
    return dirs.size() == addresses.size() ? dirs : List.of(entry);
  }

  private static PcieHop readHop(String address, PcieRole role, Path dir) {
    Map<AerSeverity, Long> aer = new EnumMap<>(AerSeverity.class);
    for (AerSeverity severity : AerSeverity.values()) {
      readFile(dir, severity.file())
          .map(PcieSysfs::parseAer)
          .ifPresent(
              counts -> PcieSysfs.aerTotal(counts, severity).ifPresent(t -> aer.put(severity, t)));
    }
    return new PcieHop(
        address,
        role,
        speed(dir, "current_link_speed"),
        speed(dir, "max_link_speed"),
        width(dir, "current_link_width"),
        width(dir, "max_link_width"),
        aer);
  }

  private static OptionalDouble speed(Path dir, String file) {
    return readFile(dir, file).map(PcieSysfs::parseSpeed).orElse(OptionalDouble.empty());
  }

  private static OptionalInt width(Path dir, String file) {
    return readFile(dir, file).map(PcieSysfs::parseWidth).orElse(OptionalInt.empty());
  }

  // Missing files are the normal case (no AER capability, a function without a link such as a
  // host-bridge-integrated device, a VM), and a read can fail with EIO or EINVAL on a device that
  // is powered down: either way the value is absent, and the other files still count.
  private static Optional<String> readFile(Path dir, String file) {
    try {
      return Optional.of(Files.readString(dir.resolve(file)));
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  private static String name(Path dir) {
    Path name = dir.getFileName();
    return name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
  }
}
