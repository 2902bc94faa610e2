package io.linkwatch.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A PCI function's NUMA placement as sysfs shows it under {@code bus/pci/devices/<address>}: {@code
 * numa_node} (-1 where the firmware gives none) and {@code local_cpulist}. A file that is missing
 * or unreadable (a container without the host's sysfs) is an empty answer, not an error.
 */
public final class PciFunction {
  private final Path dir;

  /**
   * @param address in sysfs form, e.g. {@code 0000:18:00.0}
   */
  public PciFunction(HostPaths paths, String address) {
    this.dir = paths.sysfs().resolve("bus/pci/devices").resolve(address);
  }

  /** The device's NUMA node, or empty where sysfs does not know it. */
  public Optional<Integer> numaNode() {
    return read("numa_node")
        .flatMap(
            text -> {
              try {
                int node = Integer.parseInt(text);
                return node >= 0 ? Optional.of(node) : Optional.empty();
              } catch (NumberFormatException e) {
                return Optional.empty();
              }
            });
  }

  /** The CPUs close to the device, as a cpulist such as {@code 0-55,112-167}. */
  public Optional<String> localCpus() {
    return read("local_cpulist").filter(s -> !s.isEmpty());
  }

  private Optional<String> read(String file) {
    try {
      return Optional.of(Files.readString(dir.resolve(file)).strip());
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }
}
