package io.linkwatch.passive.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PcieTopologyTest {
  @Test
  void deviceBridgeAndRootPort() {
    assertThat(
            PcieTopology.pathToRoot(
                "../../../devices/pci0000:00/0000:00:02.5/0000:04:00.0/0000:05:00.0"))
        .containsExactly("0000:05:00.0", "0000:04:00.0", "0000:00:02.5");
  }

  @Test
  void deviceDirectlyBelowTheHostBridgeIsAloneOnItsPath() {
    assertThat(PcieTopology.pathToRoot("../../../devices/pci0000:00/0000:00:04.0"))
        .containsExactly("0000:00:04.0");
  }

  @Test
  void rootPortItselfIsAPathOfOne() {
    assertThat(PcieTopology.pathToRoot("../../../devices/pci0000:15/0000:15:01.0"))
        .containsExactly("0000:15:01.0");
  }

  @Test
  void twoSwitchLevels() {
    assertThat(
            PcieTopology.pathToRoot(
                "../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/"
                    + "0000:18:00.0/0000:19:00.0/0000:1a:00.0"))
        .containsExactly(
            "0000:1a:00.0",
            "0000:19:00.0",
            "0000:18:00.0",
            "0000:17:00.0",
            "0000:16:00.0",
            "0000:15:01.0");
  }

  @Test
  void upperCaseHexIsAcceptedAndGivenLowerCase() {
    assertThat(PcieTopology.pathToRoot("../../../devices/pci0000:9A/0000:9A:00.0/0000:9B:00.0"))
        .containsExactly("0000:9b:00.0", "0000:9a:00.0");
  }

  @Test
  void absoluteTargetAndTrailingSlash() {
    assertThat(PcieTopology.pathToRoot("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/"))
        .containsExactly("0000:01:00.0", "0000:00:01.0");
  }

  @Test
  void componentsThatAreNotAddressesAreSkipped() {
    // An arm64 host bridge below a platform device; a component with a stray name in between.
    assertThat(
            PcieTopology.pathToRoot(
                "../../../devices/platform/soc/40000000.pcie/pci0000:00/0000:00:00.0/extra/"
                    + "0000:01:00.0"))
        .containsExactly("0000:01:00.0", "0000:00:00.0");
    assertThat(PcieTopology.pathToRoot("../../../devices/pci0000:00/0000:00:1g.0/0000:01:00.9"))
        .isEmpty();
  }

  @Test
  void withoutAHostBridgeEveryAddressCounts() {
    assertThat(PcieTopology.pathToRoot("0000:00:01.0/0000:01:00.0"))
        .containsExactly("0000:01:00.0", "0000:00:01.0");
    assertThat(PcieTopology.pathToRoot("")).isEmpty();
  }

  @Test
  void belowAVmdControllerThePathEndsAtTheInnerRootPort() {
    // Intel VMD: the controller 0000:00:0e.0 is an endpoint of domain 0 and the host bridge of
    // domain 10000, whose domain number prints with five digits.
    assertThat(
            PcieTopology.pathToRoot(
                "../../../devices/pci0000:00/0000:00:0e.0/pci10000:e0/10000:e0:1a.0/10000:e1:00.0"))
        .containsExactly("10000:e1:00.0", "10000:e0:1a.0");
  }

  @Test
  void roles() {
    assertThat(PcieTopology.role(0, 1)).isEqualTo(PcieRole.DEVICE);
    assertThat(PcieTopology.role(0, 3)).isEqualTo(PcieRole.DEVICE);
    assertThat(PcieTopology.role(1, 3)).isEqualTo(PcieRole.BRIDGE);
    assertThat(PcieTopology.role(2, 3)).isEqualTo(PcieRole.ROOT_PORT);
    assertThat(PcieTopology.role(1, 2)).isEqualTo(PcieRole.ROOT_PORT);
  }

  @Test
  void labels() {
    assertThat(PcieRole.DEVICE.label()).isEqualTo("device");
    assertThat(PcieRole.BRIDGE.label()).isEqualTo("bridge");
    assertThat(PcieRole.ROOT_PORT.label()).isEqualTo("root_port");
    assertThat(AerSeverity.CORRECTABLE.label()).isEqualTo("correctable");
    assertThat(AerSeverity.NONFATAL.file()).isEqualTo("aer_dev_nonfatal");
    assertThat(AerSeverity.FATAL.totalLine()).isEqualTo("TOTAL_ERR_FATAL");
  }
}
