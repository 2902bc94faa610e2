package io.linkwatch.runtime.topology;

import static io.linkwatch.runtime.topology.TopologyFixtures.fixture;
import static io.linkwatch.runtime.topology.TopologyFixtures.runtimeWith;
import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.LinkType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FallbackTopologySourceTest {
  private static final Topology A =
      new Topology("a", Map.of("0->1", LinkType.HCCS, "1->0", LinkType.HCCS), Map.of());
  private static final Topology B =
      new Topology("b", Map.of("0->1", LinkType.SIO, "1->0", LinkType.SIO), Map.of());

  private final List<String> calls = new ArrayList<>();

  private TopologySource recording(String name, Topology answer) {
    return runtime -> {
      calls.add(name);
      return answer;
    };
  }

  @Test
  void firstWithLinksWinsAndLaterSourcesAreNotAsked() {
    FallbackTopologySource source =
        new FallbackTopologySource(
            recording("none", Topology.NONE), recording("a", A), recording("b", B));

    assertThat(source.load(runtimeWith(2))).isSameAs(A);
    assertThat(calls).containsExactly("none", "a");
  }

  @Test
  void orderDecides() {
    assertThat(new FallbackTopologySource(recording("b", B), recording("a", A)).load(null))
        .isSameAs(B);
  }

  @Test
  void emptyLinksCountAsNone() {
    Topology affinityOnly = new Topology("x", Map.of(), Map.of(0, "0-23"));
    FallbackTopologySource source =
        new FallbackTopologySource(recording("x", affinityOnly), recording("b", B));

    assertThat(source.load(null)).isSameAs(B);
    assertThat(calls).containsExactly("x", "b");
  }

  @Test
  void noneWhenNoSourceAnswers() {
    FallbackTopologySource source =
        new FallbackTopologySource(recording("n1", Topology.NONE), recording("n2", Topology.NONE));

    assertThat(source.load(null)).isSameAs(Topology.NONE);
    assertThat(calls).containsExactly("n1", "n2");
    assertThat(new FallbackTopologySource().load(null)).isSameAs(Topology.NONE);
  }

  @Test
  void aThrowingSourceIsSkipped() {
    TopologySource broken =
        runtime -> {
          throw new IllegalStateException("boom");
        };

    assertThat(new FallbackTopologySource(broken, recording("a", A)).load(null)).isSameAs(A);
  }

  @Test
  void runtimeWithoutTopologyFallsBackToTheCommand(@TempDir Path dir) throws IOException {
    Path data = dir.resolve("topo.txt");
    Files.writeString(data, fixture("a3-2die-sio.txt"));
    FallbackTopologySource source =
        new FallbackTopologySource(
            new RuntimeTopologySource(),
            new CommandTopologySource(List.of("cat", data.toString()), Duration.ofSeconds(10)));

    Topology t = source.load(runtimeWith(2));

    assertThat(t.source()).isEqualTo("npu-smi");
    assertThat(t.links()).isEqualTo(Map.of("0->1", LinkType.SIO, "1->0", LinkType.SIO));
  }

  @Test
  void standardOrderIsRuntimeThenNpuSmi() {
    List<TopologySource> sources = FallbackTopologySource.standard(Duration.ofSeconds(5)).sources();

    assertThat(sources).hasSize(2);
    assertThat(sources.get(0)).isInstanceOf(RuntimeTopologySource.class);
    assertThat(sources.get(1)).isInstanceOf(CommandTopologySource.class);
    CommandTopologySource command = (CommandTopologySource) sources.get(1);
    assertThat(command.command()).isEqualTo(CommandTopologySource.DEFAULT_COMMAND);
    assertThat(command.timeout()).isEqualTo(Duration.ofSeconds(5));
  }
}
