package io.linkwatch.passive.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.linkwatch.host.HostPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcieLinkReaderTest {
  private static final String GEN5 = "32.0 GT/s PCIe";
  private static final Map<AerSeverity, Long> NO_ERRORS =
      Map.of(AerSeverity.CORRECTABLE, 0L, AerSeverity.NONFATAL, 0L, AerSeverity.FATAL, 0L);

  @TempDir Path dir;

  /**
   * An Atlas 800T A3-like host: two Ascend (19e5) NPU functions behind one PCIe switch, root port
   * -> switch upstream port -> a downstream port per NPU -> NPU.
   */
  private HostPaths a3() throws IOException {
    return SysfsPciTree.builder()
        .rootPort("0000:98:00.0")
        .link(GEN5, 16)
        .aer()
        .file("aer_rootport_total_err_cor", "7\n")
        .bridge("0000:99:00.0")
        .link(GEN5, 16)
        .aer()
        .bridge("0000:9a:00.0")
        .link(GEN5, 16)
        .aer()
        .device("0000:9b:00.0")
        .file("vendor", "0x19e5\n")
        .link(GEN5, 16)
        .aer(AerSeverity.CORRECTABLE, "RxErr", 3)
        .at("0000:99:00.0")
        .bridge("0000:9a:01.0")
        .link(GEN5, 16)
        .aer()
        .device("0000:9c:00.0") // not AER-capable: no aer_dev_* files at all
        .file("vendor", "0x19e5\n")
        .link(GEN5, 16)
        .build(dir);
  }

  /**
   * An HGX-like host: 8 GPUs, two per switch, each behind two switch levels (root port -> level-1
   * upstream -> level-1 downstream -> level-2 upstream -> level-2 downstream -> GPU). GPU 4's link
   * trained down to 8 GT/s x8, which its downstream port sees too; the level-1 downstream port of
   * the third group has counted non-fatal errors.
   */
  private HostPaths hgx() throws IOException {
    SysfsPciTree.Builder tree = SysfsPciTree.builder();
    int[] rootBuses = {0x15, 0x37, 0x9a, 0xba};
    for (int group = 0; group < rootBuses.length; group++) {
      int bus = rootBuses[group];
      tree.rootPort(bdf(bus, 1))
          .link(GEN5, 16)
          .aer()
          .bridge(bdf(bus + 1, 0))
          .link(GEN5, 16)
          .aer()
          .bridge(bdf(bus + 2, 0))
          .link(GEN5, 16);
      if (group == 2) {
        tree.aer(AerSeverity.NONFATAL, "CmpltTO", 3);
      } else {
        tree.aer();
      }
      tree.bridge(bdf(bus + 3, 0)).link(GEN5, 16).aer();
      for (int slot = 0; slot < 2; slot++) {
        int gpu = 2 * group + slot;
        tree.at(bdf(bus + 3, 0)).bridge(bdf(bus + 4, slot)).aer();
        String speed = gpu == 4 ? "8.0 GT/s PCIe" : GEN5;
        int width = gpu == 4 ? 8 : 16;
        tree.link(speed, width, GEN5, 16)
            .device(bdf(bus + 5 + slot, 0))
            .file("vendor", "0x10de\n")
            .link(speed, width, GEN5, 16)
            .aer();
      }
    }
    return tree.build(dir);
  }

  private static String bdf(int bus, int device) {
    return String.format("0000:%02x:%02x.0", bus, device);
  }

  @Test
  void npuBehindASwitch() throws IOException {
    List<PcieHop> hops = new PcieLinkReader(a3()).read("0000:9b:00.0");

    assertThat(hops)
        .extracting(PcieHop::pciAddress, PcieHop::role)
        .containsExactly(
            tuple("0000:9b:00.0", PcieRole.DEVICE),
            tuple("0000:9a:00.0", PcieRole.BRIDGE),
            tuple("0000:99:00.0", PcieRole.BRIDGE),
            tuple("0000:98:00.0", PcieRole.ROOT_PORT));
    assertThat(hops.get(0))
        .isEqualTo(
            new PcieHop(
                "0000:9b:00.0",
                PcieRole.DEVICE,
                OptionalDouble.of(32e9),
                OptionalDouble.of(32e9),
                OptionalInt.of(16),
                OptionalInt.of(16),
                Map.of(
                    AerSeverity.CORRECTABLE, 3L, AerSeverity.NONFATAL, 0L, AerSeverity.FATAL, 0L)));
    // The root port's own counters, not the errors reported to it (aer_rootport_total_err_cor).
    assertThat(hops.get(3).aerTotals()).isEqualTo(NO_ERRORS);
  }

  @Test
  void aDeviceWithoutAerHasNoAerKeys() throws IOException {
    List<PcieHop> hops = new PcieLinkReader(a3()).read("0000:9c:00.0");

    assertThat(hops)
        .extracting(PcieHop::pciAddress)
        .containsExactly("0000:9c:00.0", "0000:9a:01.0", "0000:99:00.0", "0000:98:00.0");
    assertThat(hops.get(0).aerTotals()).isEmpty();
    assertThat(hops.get(0).width()).hasValue(16);
    assertThat(hops.get(1).aerTotals()).isEqualTo(NO_ERRORS);
  }

  @Test
  void switchPortsAndRootPortAreReadableByTheirOwnAddress() throws IOException {
    PcieLinkReader reader = new PcieLinkReader(a3());

    assertThat(reader.read("0000:99:00.0"))
        .extracting(PcieHop::pciAddress, PcieHop::role)
        .containsExactly(
            tuple("0000:99:00.0", PcieRole.DEVICE), tuple("0000:98:00.0", PcieRole.ROOT_PORT));
    // Directly below its host bridge: a path of one.
    assertThat(reader.read("0000:98:00.0"))
        .extracting(PcieHop::pciAddress, PcieHop::role)
        .containsExactly(tuple("0000:98:00.0", PcieRole.DEVICE));
  }

  @Test
  void everyGpuOfAnHgxHasSixHops() throws IOException {
    PcieLinkReader reader = new PcieLinkReader(hgx());
    List<String> gpus =
        List.of(
            "0000:1a:00.0",
            "0000:1b:00.0",
            "0000:3c:00.0",
            "0000:3d:00.0",
            "0000:9f:00.0",
            "0000:a0:00.0",
            "0000:bf:00.0",
            "0000:c0:00.0");

    for (String gpu : gpus) {
      List<PcieHop> hops = reader.read(gpu);
      assertThat(hops).as(gpu).hasSize(6);
      assertThat(hops)
          .extracting(PcieHop::role)
          .containsExactly(
              PcieRole.DEVICE,
              PcieRole.BRIDGE,
              PcieRole.BRIDGE,
              PcieRole.BRIDGE,
              PcieRole.BRIDGE,
              PcieRole.ROOT_PORT);
      assertThat(hops.get(0).pciAddress()).isEqualTo(gpu);
    }
    assertThat(reader.read("0000:1b:00.0"))
        .extracting(PcieHop::pciAddress)
        .containsExactly(
            "0000:1b:00.0",
            "0000:19:01.0",
            "0000:18:00.0",
            "0000:17:00.0",
            "0000:16:00.0",
            "0000:15:01.0");
  }

  @Test
  void aDowntrainedGpuShowsAtBothEndsOfItsLink() throws IOException {
    List<PcieHop> hops = new PcieLinkReader(hgx()).read("0000:9f:00.0");

    for (PcieHop hop : hops.subList(0, 2)) {
      assertThat(hop.speedTransfersPerSecond()).as(hop.pciAddress()).hasValue(8e9);
      assertThat(hop.maxSpeedTransfersPerSecond()).as(hop.pciAddress()).hasValue(32e9);
      assertThat(hop.width()).as(hop.pciAddress()).hasValue(8);
      assertThat(hop.maxWidth()).as(hop.pciAddress()).hasValue(16);
    }
    for (PcieHop hop : hops.subList(2, 6)) {
      assertThat(hop.speedTransfersPerSecond()).as(hop.pciAddress()).hasValue(32e9);
      assertThat(hop.width()).as(hop.pciAddress()).hasValue(16);
    }
  }

  @Test
  void theDowntrainedGpusNeighbourTrainedFully() throws IOException {
    List<PcieHop> hops = new PcieLinkReader(hgx()).read("0000:a0:00.0");

    assertThat(hops.get(0).speedTransfersPerSecond()).hasValue(32e9);
    assertThat(hops.get(0).width()).hasValue(16);
    assertThat(hops.get(1).pciAddress()).isEqualTo("0000:9e:01.0");
    assertThat(hops.get(1).width()).hasValue(16);
  }

  @Test
  void aBridgeWithNonFatalErrorsOnTheWayOfBothItsGpus() throws IOException {
    PcieLinkReader reader = new PcieLinkReader(hgx());

    for (String gpu : List.of("0000:9f:00.0", "0000:a0:00.0")) {
      List<PcieHop> hops = reader.read(gpu);
      assertThat(hops.get(3).pciAddress()).isEqualTo("0000:9c:00.0");
      assertThat(hops.get(3).aerTotals()).containsEntry(AerSeverity.NONFATAL, 3L);
      assertThat(hops)
          .filteredOn(h -> !h.pciAddress().equals("0000:9c:00.0"))
          .allSatisfy(h -> assertThat(h.aerTotals()).isEqualTo(NO_ERRORS));
    }
    assertThat(reader.read("0000:1a:00.0"))
        .allSatisfy(h -> assertThat(h.aerTotals()).isEqualTo(NO_ERRORS));
  }

  @Test
  void addressNotInSysfsIsNoHops() throws IOException {
    PcieLinkReader reader = new PcieLinkReader(a3());

    assertThat(reader.read("0000:01:00.0")).isEmpty();
    assertThat(reader.read("not an address")).isEmpty();
    assertThat(reader.read("../../../devices")).isEmpty();
    assertThat(new PcieLinkReader(new HostPaths(dir, dir.resolve("no-sys"))).read("0000:9b:00.0"))
        .isEmpty();
  }

  @Test
  void upperCaseAddressIsReadAsSysfsNamesIt() throws IOException {
    List<PcieHop> hops = new PcieLinkReader(a3()).read("0000:9B:00.0");

    assertThat(hops).extracting(PcieHop::pciAddress).startsWith("0000:9b:00.0", "0000:9a:00.0");
  }

  @Test
  void aFlatDirectoryIsTheDeviceAlone() throws IOException {
    // A fixture (or a copy of sysfs) that kept the directory but not the link.
    Path device = Files.createDirectories(dir.resolve("sys/bus/pci/devices/0000:3b:00.0"));
    Files.writeString(device.resolve("current_link_speed"), "16.0 GT/s PCIe\n");
    Files.writeString(device.resolve("max_link_width"), "16\n");
    Files.writeString(device.resolve("aer_dev_fatal"), "DLP 0\nTOTAL_ERR_FATAL 0\n");

    List<PcieHop> hops =
        new PcieLinkReader(new HostPaths(dir.resolve("proc"), dir.resolve("sys")))
            .read("0000:3b:00.0");

    assertThat(hops)
        .containsExactly(
            new PcieHop(
                "0000:3b:00.0",
                PcieRole.DEVICE,
                OptionalDouble.of(16e9),
                OptionalDouble.empty(),
                OptionalInt.empty(),
                OptionalInt.of(16),
                Map.of(AerSeverity.FATAL, 0L)));
  }

  @Test
  void aLinkThatDoesNotEndAtItsOwnNameIsTheDeviceAlone() throws IOException {
    // Never so in a kernel's sysfs; a hand-made tree could. The path above would not be this
    // device's, so only the device is read, through its link.
    Path target =
        Files.createDirectories(dir.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"));
    Files.writeString(target.resolve("current_link_width"), "4\n");
    Path links = Files.createDirectories(dir.resolve("sys/bus/pci/devices"));
    Files.createSymbolicLink(
        links.resolve("0000:02:00.0"),
        Path.of("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0"));

    List<PcieHop> hops =
        new PcieLinkReader(new HostPaths(dir.resolve("proc"), dir.resolve("sys")))
            .read("0000:02:00.0");

    assertThat(hops).extracting(PcieHop::pciAddress).containsExactly("0000:02:00.0");
    assertThat(hops.get(0).role()).isEqualTo(PcieRole.DEVICE);
    assertThat(hops.get(0).width()).hasValue(4);
  }

  @Test
  void anUnreadableFileLosesItsValueOnly() throws IOException {
    HostPaths paths = a3();
    Path bridge = paths.sysfs().resolve("devices/pci0000:98/0000:98:00.0/0000:99:00.0");
    // A directory in place of the file: reading it fails with an I/O error, even for root.
    Files.delete(bridge.resolve("current_link_speed"));
    Files.createDirectory(bridge.resolve("current_link_speed"));
    Files.delete(bridge.resolve("aer_dev_nonfatal"));
    Files.createDirectory(bridge.resolve("aer_dev_nonfatal"));

    List<PcieHop> hops = new PcieLinkReader(paths).read("0000:9b:00.0");

    PcieHop hop = hops.get(2);
    assertThat(hop.pciAddress()).isEqualTo("0000:99:00.0");
    assertThat(hop.speedTransfersPerSecond()).isEmpty();
    assertThat(hop.maxSpeedTransfersPerSecond()).hasValue(32e9);
    assertThat(hop.width()).hasValue(16);
    assertThat(hop.aerTotals())
        .isEqualTo(Map.of(AerSeverity.CORRECTABLE, 0L, AerSeverity.FATAL, 0L));
    assertThat(hops.get(1).speedTransfersPerSecond()).hasValue(32e9);
    assertThat(hops.get(3).speedTransfersPerSecond()).hasValue(32e9);
  }

  @Test
  void unknownSpeedAndZeroWidth() throws IOException {
    // A link that is down: the kernel cannot name a speed, and no lanes trained.
    HostPaths paths =
        SysfsPciTree.builder()
            .rootPort("0000:00:01.0")
            .link(GEN5, 16)
            .device("0000:01:00.0")
            .file("current_link_speed", "Unknown\n")
            .file("max_link_speed", "16.0 GT/s PCIe\n")
            .file("current_link_width", "0\n")
            .file("max_link_width", "16\n")
            .build(dir);

    PcieHop device = new PcieLinkReader(paths).read("0000:01:00.0").get(0);

    assertThat(device.speedTransfersPerSecond()).isEmpty();
    assertThat(device.maxSpeedTransfersPerSecond()).hasValue(16e9);
    assertThat(device.width()).hasValue(0);
    assertThat(device.aerTotals()).isEmpty();
  }

  @Test
  void aerTotalsAreACopyThatCannotChange() {
    Map<AerSeverity, Long> totals = new HashMap<>(Map.of(AerSeverity.FATAL, 1L));
    PcieHop hop =
        new PcieHop(
            "0000:01:00.0",
            PcieRole.DEVICE,
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            OptionalInt.empty(),
            OptionalInt.empty(),
            totals);
    totals.put(AerSeverity.NONFATAL, 2L);

    assertThat(hop.aerTotals()).isEqualTo(Map.of(AerSeverity.FATAL, 1L));
    assertThatThrownBy(() -> hop.aerTotals().put(AerSeverity.CORRECTABLE, 1L))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
