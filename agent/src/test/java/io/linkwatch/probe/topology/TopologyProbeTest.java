package io.linkwatch.probe.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.SimRuntime;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.topology.FallbackTopologySource;
import io.linkwatch.runtime.topology.RuntimeTopologySource;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.runtime.topology.TopologySource;
import io.linkwatch.testing.SimFace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Against the sim's default profile: two Ascend910_9382 dies (phy 2 and 3) joined by SIO. */
class TopologyProbeTest {
  private static ProbeRun run(TopologySource source) {
    return run(SimFace.ASCEND, source, HostPaths.system());
  }

  private static ProbeRun run(SimFace face, TopologySource source, HostPaths paths) {
    try (DeviceRuntime runtime = face.open()) {
      return new TopologySettings()
          .newProbe()
          .run(new ProbeContext(runtime, source, paths, Progress.NONE));
    }
  }

  /**
   * On CUDA the links come from NVML (NVLink P2P status, else the PCIe path), and each device's
   * NUMA node and local CPUs from its PCI function in sysfs: here a fixture tree with the H200
   * profile's first two bus ids, one device with a node and one that sysfs does not place (-1).
   */
  @Test
  void cudaLinksFromNvmlAndPlacementFromSysfs(@TempDir Path root) throws IOException {
    Path pci = root.resolve("sys/bus/pci/devices");
    Files.createDirectories(pci.resolve("0000:18:00.0"));
    Files.writeString(pci.resolve("0000:18:00.0/numa_node"), "0\n");
    Files.writeString(pci.resolve("0000:18:00.0/local_cpulist"), "0-55,112-167\n");
    Files.createDirectories(pci.resolve("0000:2a:00.0"));
    Files.writeString(pci.resolve("0000:2a:00.0/numa_node"), "-1\n");
    HostPaths paths = new HostPaths(root.resolve("proc"), root.resolve("sys"));

    ProbeRun run =
        run(SimFace.CUDA, new FallbackTopologySource(new RuntimeTopologySource()), paths);

    assertThat(of(run, "links"))
        .hasSize(56)
        .allSatisfy(m -> assertThat(((LinkInfo) m).link()).isEqualTo("NVLINK"));
    long h200 = SimFace.CUDA.memoryBytes();
    assertThat(of(run, "dev0"))
        .containsExactly(
            new DeviceInfo(
                0,
                "NVIDIA H200",
                0,
                0,
                "0-55,112-167",
                h200,
                "GPU-51110000-0000-4000-8000-000000000000"));
    // NVML's UUID, what NVIDIA's device plugin names the GPU to the kubelet.
    assertThat(of(run, "dev1"))
        .containsExactly(
            new DeviceInfo(
                1, "NVIDIA H200", 1, null, "", h200, "GPU-51110000-0000-4000-8000-000000000001"));
    assertThat(of(run, "dev7")).hasSize(1);
  }

  private static List<Measurement> of(ProbeRun run, String target) {
    TargetResult t =
        run.targets().stream().filter(r -> r.target().equals(target)).findFirst().orElseThrow();
    assertThat(t.outcome()).as(t.error()).isEqualTo(Outcome.SUCCESS);
    return t.measurements();
  }

  @Test
  void linksAndInventoryFromTheRuntime() {
    ProbeRun run = run(new FallbackTopologySource(new RuntimeTopologySource()));

    assertThat(run.probe()).isEqualTo("topology");
    assertThat(run.targets())
        .extracting(TargetResult::target)
        .containsExactly("links", "dev0", "dev1");
    assertThat(of(run, "links"))
        .containsExactly(new LinkInfo(0, 1, "SIO"), new LinkInfo(1, 0, "SIO"));
    assertThat(of(run, "dev0"))
        .containsExactly(new DeviceInfo(0, "Ascend910_9382", 2, null, "", 64L << 30));
    assertThat(of(run, "dev1"))
        .containsExactly(new DeviceInfo(1, "Ascend910_9382", 3, null, "", 64L << 30));
    assertThat(of(run, "dev0").get(0).summary()).isEqualTo("dev0 Ascend910_9382 64GiB phy 2");
    assertThat(of(run, "links").get(0).summary()).isEqualTo("0->1 SIO");
  }

  @Test
  void affinityComesFromTheTopology() {
    Topology topology =
        new Topology(
            "test",
            Map.of("0->1", LinkType.HCCS, "1->0", LinkType.HCCS),
            Map.of(1, "24-47,120-143"));

    ProbeRun run = run(r -> topology);

    assertThat(of(run, "links"))
        .containsExactly(new LinkInfo(0, 1, "HCCS"), new LinkInfo(1, 0, "HCCS"));
    assertThat(((DeviceInfo) of(run, "dev0").get(0)).cpuAffinity()).isEmpty();
    DeviceInfo dev1 = (DeviceInfo) of(run, "dev1").get(0);
    assertThat(dev1.cpuAffinity()).isEqualTo("24-47,120-143");
    assertThat(dev1.summary()).isEqualTo("dev1 Ascend910_9382 64GiB phy 3 cpus 24-47,120-143");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void noTopologyFailsTheLinksTargetOnly(SimFace face) {
    ProbeRun run = run(face, r -> Topology.NONE, HostPaths.system());

    TargetResult links = run.targets().get(0);
    assertThat(links.target()).isEqualTo("links");
    assertThat(links.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(links.error())
        .isEqualTo(
            face == SimFace.CUDA
                ? "no topology source answered (nvml)"
                : "no topology source answered (aclrtGetDevicesTopo, then the topology command)");
    assertThat(links.measurements()).isEmpty();
    assertThat(of(run, "dev0")).hasSize(1);
    assertThat(of(run, "dev1")).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void p2pMeasurementsCarryTheLinkFromTheTopology(SimFace face) {
    ProbeRun run;
    try (DeviceRuntime runtime = face.open()) {
      run =
          new P2pSettings(List.of(1L << 20), 0, 2, face.firstPairs())
              .newProbe()
              .run(
                  SimRuntime.context(
                      runtime, new FallbackTopologySource(new RuntimeTopologySource())));
    }
    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("0->1", "1->0");
    assertThat(run.targets())
        .flatExtracting(TargetResult::measurements)
        .hasSize(2)
        .allSatisfy(m -> assertThat(((P2pBandwidth) m).link()).isEqualTo(face.link01()));
  }
}
