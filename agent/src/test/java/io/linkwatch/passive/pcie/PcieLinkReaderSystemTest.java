package io.linkwatch.passive.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linkwatch.host.HostPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Reads every PCI function of the machine the tests run on, through the real {@code /sys}. A VM's
 * functions often sit directly below the host bridge and have no link or AER files; the test then
 * still checks that each was read, alone, with nothing invented.
 */
class PcieLinkReaderSystemTest {
  private static final Path DEVICES = Path.of("/sys/bus/pci/devices");

  @Test
  void everyFunctionOfThisMachineReadsAsItsFilesSay() throws IOException {
    assumeTrue(Files.isDirectory(DEVICES), "no PCI bus in this machine's sysfs");
    List<Path> entries;
    try (Stream<Path> list = Files.list(DEVICES)) {
      entries = list.sorted().toList();
    }
    assumeTrue(!entries.isEmpty(), "no PCI functions in this machine's sysfs");
    PcieLinkReader reader = new PcieLinkReader(HostPaths.system());

    int visited = 0;
    for (Path entry : entries) {
      String address = entry.getFileName().toString();
      List<PcieHop> hops = reader.read(address);

      assertThat(hops).as(address).isNotEmpty();
      assertThat(hops.get(0).pciAddress()).isEqualTo(address);
      assertThat(hops.get(0).role()).isEqualTo(PcieRole.DEVICE);
      List<String> path =
          Files.isSymbolicLink(entry)
              ? PcieTopology.pathToRoot(Files.readSymbolicLink(entry).toString())
              : List.of(address);
      assertThat(hops).as(address).extracting(PcieHop::pciAddress).isEqualTo(path);
      for (int i = 0; i < hops.size(); i++) {
        assertThat(hops.get(i).role()).isEqualTo(PcieTopology.role(i, hops.size()));
        // Each hop is a PCI function with its own entry: read its files from there, which is
        // not how the reader found them. Values could change between the two reads (a GPU's
        // link drops to 2.5 GT/s when idle), but not in the microseconds between them here.
        assertThat(hops.get(i)).isEqualTo(expected(hops.get(i)));
      }
      visited++;
    }
    assertThat(visited).isEqualTo(entries.size());
  }

  private static PcieHop expected(PcieHop hop) {
    Path dir = DEVICES.resolve(hop.pciAddress());
    Map<AerSeverity, Long> aer = new EnumMap<>(AerSeverity.class);
    for (AerSeverity severity : AerSeverity.values()) {
      read(dir, severity.file())
          .flatMap(
              text -> {
                var total = PcieSysfs.aerTotal(PcieSysfs.parseAer(text), severity);
                return total.isPresent() ? Optional.of(total.getAsLong()) : Optional.empty();
              })
          .ifPresent(total -> aer.put(severity, total));
    }
    return new PcieHop(
        hop.pciAddress(),
        hop.role(),
        read(dir, "current_link_speed").map(PcieSysfs::parseSpeed).orElse(OptionalDouble.empty()),
        read(dir, "max_link_speed").map(PcieSysfs::parseSpeed).orElse(OptionalDouble.empty()),
        read(dir, "current_link_width").map(PcieSysfs::parseWidth).orElse(OptionalInt.empty()),
        read(dir, "max_link_width").map(PcieSysfs::parseWidth).orElse(OptionalInt.empty()),
        aer);
  }

  private static Optional<String> read(Path dir, String file) {
    try {
      return Optional.of(Files.readString(dir.resolve(file)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
