package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NumaTopologyTest {
  @Test
  void readsTheEightNodesOfAnAtlas800tA3() {
    NumaTopology topology = NumaTopology.read(Fixtures.atlas800tA3());

    assertThat(topology.nodes()).extracting(NumaNode::id).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(topology.nodesWithCpus()).hasSize(8);
    assertThat(topology.nodesWithMemory())
        .extracting(NumaNode::id)
        .containsExactly(0, 1, 2, 3, 5, 6, 7);

    NumaNode node4 = topology.node(4).orElseThrow();
    assertThat(node4.cpus()).isEqualTo(IntStream.rangeClosed(320, 399).boxed().toList());
    assertThat(node4.hasMemory()).isFalse();
    assertThat(node4.distances()).containsExactly(20, 20, 20, 20, 10, 15, 20, 20);
    assertThat(topology.node(8)).isEmpty();
  }

  @Test
  void answersDistancesCpuNodesAndTheNearestMemory() {
    NumaTopology topology = NumaTopology.read(Fixtures.atlas800tA3());

    assertThat(topology.nodeOfCpu(327)).map(NumaNode::id).contains(4);
    assertThat(topology.nodeOfCpu(640)).isEmpty();
    assertThat(topology.distance(4, 5)).hasValue(15);
    assertThat(topology.distance(0, 7)).hasValue(20);
    assertThat(topology.distance(3, 3)).hasValue(10);
    // A CPU-only node's nearest memory is its partner, which is where seed 004 found node 4's
    // pages.
    assertThat(topology.nearestNodeWithMemory(4)).map(NumaNode::id).contains(5);
    assertThat(topology.nearestNodeWithMemory(6)).map(NumaNode::id).contains(6);
  }

  @Test
  void withoutHasMemoryListUsesMemTotal(@TempDir Path root) throws IOException {
    Path dir = Files.createDirectories(root.resolve("sys/devices/system/node"));
    Files.writeString(dir.resolve("online"), "0,2\n");
    node(dir, 0, "0-1", "10 21", "Node 0 MemTotal:       4417312 kB\nNode 0 MemFree: 1 kB\n");
    node(dir, 2, "2-3", "21 10", "Node 2 MemTotal:       0 kB\n");

    NumaTopology topology =
        NumaTopology.read(new HostPaths(root.resolve("proc"), root.resolve("sys")));

    assertThat(topology.nodes())
        .containsExactly(
            new NumaNode(0, List.of(0, 1), true, List.of(10, 21)),
            new NumaNode(2, List.of(2, 3), false, List.of(21, 10)));
    assertThat(topology.distance(0, 2)).hasValue(21);
  }

  @Test
  void memoryOnlyNodeHasNoCpus(@TempDir Path root) throws IOException {
    Path dir = Files.createDirectories(root.resolve("sys/devices/system/node"));
    Files.writeString(dir.resolve("online"), "0-1\n");
    Files.writeString(dir.resolve("has_memory"), "0-1\n");
    node(dir, 0, "0-3", "10 20", "");
    node(dir, 1, "\n", "20 10", "");

    NumaTopology topology =
        NumaTopology.read(new HostPaths(root.resolve("proc"), root.resolve("sys")));

    assertThat(topology.nodesWithCpus()).extracting(NumaNode::id).containsExactly(0);
    assertThat(topology.node(1).orElseThrow().hasMemory()).isTrue();
  }

  @Test
  void noNodeDirectoryIsAClearError(@TempDir Path root) {
    assertThatThrownBy(() -> NumaTopology.read(new HostPaths(root, root)))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("devices/system/node/online")
        .hasMessageContaining("without NUMA");
  }

  @Test
  void pureParsers() {
    assertThat(NumaTopology.parseDistances("10 15 20 20\n")).containsExactly(10, 15, 20, 20);
    assertThat(NumaTopology.parseDistances("")).isEmpty();
    assertThat(
            NumaTopology.parseMemTotalKb(
                """
                Node 4 MemTotal:       0 kB
                Node 4 MemFree:        0 kB
                """))
        .hasValue(0);
    assertThat(NumaTopology.parseMemTotalKb("Node 0 MemTotal:  263523488 kB")).hasValue(263523488);
    assertThat(NumaTopology.parseMemTotalKb("Node 0 MemFree: 1 kB")).isEmpty();
  }

  @Test
  void readsThisMachine() {
    Path node = Path.of("/sys/devices/system/node/online");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(node));
    NumaTopology topology = NumaTopology.read(HostPaths.system());
    assertThat(topology.nodesWithCpus()).isNotEmpty();
    assertThat(topology.nodesWithMemory()).isNotEmpty();
    NumaNode first = topology.nodes().get(0);
    assertThat(first.distances()).hasSize(topology.nodes().size());
  }

  private static void node(Path dir, int id, String cpus, String distance, String meminfo)
      throws IOException {
    Path node = Files.createDirectories(dir.resolve("node" + id));
    Files.writeString(node.resolve("cpulist"), cpus + "\n");
    Files.writeString(node.resolve("distance"), distance + "\n");
    if (!meminfo.isEmpty()) {
      Files.writeString(node.resolve("meminfo"), meminfo);
    }
  }
}
