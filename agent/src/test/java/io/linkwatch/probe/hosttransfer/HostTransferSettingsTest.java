package io.linkwatch.probe.hosttransfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.host.NumaNode;
import io.linkwatch.host.NumaTopology;
import io.linkwatch.probe.DeviceIds;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostTransferSettingsTest {
  // Nodes 0 and 1 with CPUs, node 2 memory only (e.g. CXL or HBM exposed as a node), 3 offline.
  private static final NumaTopology TOPOLOGY =
      new NumaTopology(
          List.of(
              new NumaNode(0, List.of(0, 1), true, List.of(10, 20, 30)),
              new NumaNode(1, List.of(2, 3), true, List.of(20, 10, 30)),
              new NumaNode(2, List.of(), true, List.of(30, 30, 10))));

  @Test
  void nodesWithCpusCanBeProbed() {
    assertThat(HostTransferSettings.nodeProblem(0, TOPOLOGY)).isEmpty();
    assertThat(HostTransferSettings.nodeProblem(1, TOPOLOGY)).isEmpty();
  }

  @Test
  void aNodeWithoutCpusOrAMissingNodeIsNamedWithTheReason() {
    assertThat(HostTransferSettings.nodeProblem(2, TOPOLOGY))
        .contains("NUMA node 2 has no CPUs, so no thread can run there (nodes with CPUs: 0-1)");
    assertThat(HostTransferSettings.nodeProblem(3, TOPOLOGY))
        .contains("NUMA node 3 does not exist (nodes: 0-2)");
  }

  @Test
  void parsesMemoryKindsAndNumbers() {
    assertThat(HostTransferSettings.parseMemory(" pinned ")).isEqualTo("pinned");
    assertThat(HostTransferSettings.parseNode("7")).isEqualTo(7);
    assertThat(DeviceIds.parse("0")).isZero();
    assertThatThrownBy(() -> HostTransferSettings.parseMemory("Pinned"))
        .hasMessage("'Pinned' is not a kind of host memory (use pinned or pageable)");
    assertThatThrownBy(() -> HostTransferSettings.parseNode("1.5"))
        .hasMessage("'1.5' is not a NUMA node number (use 0, 1, ...)");
  }

  @Test
  void duplicatesAreMeasuredOnce() {
    HostTransferSettings s =
        new HostTransferSettings(
            List.of(1L, 1L), 0, 1, List.of(0, 0), List.of(3, 3), List.of("pinned", "pinned"));
    assertThat(s.sizes()).containsExactly(1L);
    assertThat(s.devices()).containsExactly(0);
    assertThat(s.nodes()).containsExactly(3);
    assertThat(s.memory()).containsExactly("pinned");
  }
}
