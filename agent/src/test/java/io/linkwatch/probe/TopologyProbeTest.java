package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.P2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.FallbackTopologySource;
import io.linkwatch.probe.topology.RuntimeTopologySource;
import io.linkwatch.probe.topology.Topology;
import io.linkwatch.probe.topology.TopologySource;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.LinkType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Against the sim's default profile: two Ascend910_9382 dies (phy 2 and 3) joined by SIO. */
class TopologyProbeTest {
  private static ProbeRun run(TopologySource source) {
    try (DeviceRuntime runtime = SimRuntime.open()) {
      return new TopologySettings().newProbe().run(SimRuntime.context(runtime, source));
    }
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
        .containsExactly(new DeviceInfo(0, "Ascend910_9382", "2", "", "", 64L << 30));
    assertThat(of(run, "dev1"))
        .containsExactly(new DeviceInfo(1, "Ascend910_9382", "3", "", "", 64L << 30));
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

  @Test
  void noTopologyFailsTheLinksTargetOnly() {
    ProbeRun run = run(r -> Topology.NONE);

    TargetResult links = run.targets().get(0);
    assertThat(links.target()).isEqualTo("links");
    assertThat(links.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(links.error())
        .isEqualTo("no topology source answered (aclrtGetDevicesTopo, then the topology command)");
    assertThat(links.measurements()).isEmpty();
    assertThat(of(run, "dev0")).hasSize(1);
    assertThat(of(run, "dev1")).hasSize(1);
  }

  @Test
  void p2pMeasurementsCarryTheLinkFromTheTopology() {
    ProbeRun run;
    try (DeviceRuntime runtime = SimRuntime.open()) {
      run =
          new P2pSettings(List.of(1L << 20), 0, 2, List.of())
              .newProbe()
              .run(
                  SimRuntime.context(
                      runtime, new FallbackTopologySource(new RuntimeTopologySource())));
    }
    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("0->1", "1->0");
    assertThat(run.targets())
        .flatExtracting(TargetResult::measurements)
        .hasSize(2)
        .allSatisfy(m -> assertThat(((P2pBandwidth) m).link()).isEqualTo("SIO"));
  }
}
