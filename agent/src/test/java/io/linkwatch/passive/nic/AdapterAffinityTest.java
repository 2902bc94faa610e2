package io.linkwatch.passive.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.InfinibandTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdapterAffinityTest {
  @TempDir Path dir;

  static final List<String> GPU0 =
      List.of("0000:1b:00.0", "0000:1a:00.0", "0000:19:00.0", "0000:18:00.0", "0000:15:01.0");
  static final List<String> HCA0 =
      List.of("0000:1c:00.0", "0000:19:00.0", "0000:18:00.0", "0000:15:01.0");
  static final List<String> GPU1 =
      List.of("0000:3b:00.0", "0000:3a:00.0", "0000:39:00.0", "0000:38:00.0", "0000:35:01.0");
  static final List<String> HCA1 =
      List.of("0000:3c:00.0", "0000:39:00.0", "0000:38:00.0", "0000:35:01.0");

  @Test
  void eachAdapterServesTheGpuUnderItsSwitch() {
    assertThat(
            AdapterAffinity.nearest(
                Map.of(0, GPU0, 1, GPU1), Map.of("mlx5_0", HCA0, "mlx5_1", HCA1)))
        .isEqualTo(Map.of("mlx5_0", 0, "mlx5_1", 1));
  }

  @Test
  void anAdapterOnARootPortOfItsOwnServesNone() {
    // a management NIC on the CPU's own lanes shares no bridge with any GPU
    List<String> mgmt = List.of("0000:02:00.0", "0000:00:1c.0");
    assertThat(AdapterAffinity.nearest(Map.of(0, GPU0), Map.of("mlx5_mgmt", mgmt))).isEmpty();
  }

  @Test
  void twoGpusAndTwoAdaptersOnOneSwitchPairInAddressOrderAndUnevenNumbersPairNone() {
    // one switch (18:00.0 below root port 15:01.0), four downstream ports
    List<String> gpuA = List.of("0000:1a:00.0", "0000:19:00.0", "0000:18:00.0", "0000:15:01.0");
    List<String> gpuB = List.of("0000:1d:00.0", "0000:19:03.0", "0000:18:00.0", "0000:15:01.0");
    List<String> hcaA = List.of("0000:1b:00.0", "0000:19:01.0", "0000:18:00.0", "0000:15:01.0");
    List<String> hcaB = List.of("0000:1c:00.0", "0000:19:02.0", "0000:18:00.0", "0000:15:01.0");
    assertThat(
            AdapterAffinity.nearest(
                Map.of(4, gpuB, 3, gpuA), Map.of("mlx5_1", hcaB, "mlx5_0", hcaA)))
        .isEqualTo(Map.of("mlx5_0", 3, "mlx5_1", 4));
    // three adapters for two GPUs: no pairing can be trusted
    List<String> hcaC = List.of("0000:1e:00.0", "0000:19:04.0", "0000:18:00.0", "0000:15:01.0");
    assertThat(
            AdapterAffinity.nearest(
                Map.of(3, gpuA, 4, gpuB), Map.of("mlx5_0", hcaA, "mlx5_1", hcaB, "mlx5_2", hcaC)))
        .isEmpty();
  }

  @Test
  void sharedCountsBridgesFromTheRootPortDown() {
    assertThat(AdapterAffinity.shared(GPU0, HCA0)).isEqualTo(3);
    assertThat(AdapterAffinity.shared(GPU0, HCA1)).isZero();
    assertThat(AdapterAffinity.shared(GPU0, GPU0))
        .as("a function never shares itself")
        .isEqualTo(4);
  }

  @Test
  void sysfsPortsCarryTheGpuTheirAdapterServes() throws Exception {
    Path sys = dir.resolve("sys");
    InfinibandTree.hgx(sys, List.of("0000:18:00.0", "0000:9a:00.0"));
    // the kernel's own links: bus/pci/devices/ADDRESS into devices/pci0000:BB/...
    assertThat(Files.readSymbolicLink(sys.resolve("bus/pci/devices/0000:19:00.0")).toString())
        .isEqualTo(
            "../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:19:00.0");
    InfinibandSysfs reader = new InfinibandSysfs(sys);
    assertThat(reader.pciAddress("mlx5_1")).contains("0000:9b:00.0");
    List<NicPort> ports = reader.read(Map.of(0, "0000:18:00.0", 1, "0000:9A:00.0"));
    assertThat(ports).extracting(NicPort::nic).containsExactly("mlx5_0", "mlx5_1");
    assertThat(ports).extracting(NicPort::device).containsExactly(0, 1);
    // without the accelerators' addresses (the vendor library not read yet) nothing is guessed
    assertThat(reader.read(Map.of())).extracting(NicPort::device).containsOnlyNulls();
    // a tree without bus/pci/devices (the procfs fixture): the ports, unlabelled
    assertThat(
            new InfinibandSysfs(Path.of("src/test/resources/fixtures/procfs-infiniband/sys"))
                .read(Map.of(0, "0000:18:00.0")))
        .hasSize(4)
        .extracting(NicPort::device)
        .containsOnlyNulls();
  }
}
