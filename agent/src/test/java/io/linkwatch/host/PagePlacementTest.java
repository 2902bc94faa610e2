package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PagePlacementTest {
  private static final long PAGE = 4096;
  private static final long MIB_16 = 16L << 20;
  private static final long BUFFER_FROM_NODE_4 = 0x7f2c40000000L;
  private static final long BUFFER_FROM_NODE_5 = 0x7f2c41002000L;

  /** move_pages as the containers of seed 004 answer it. */
  private static final PageNodeQuery REFUSED =
      pages -> {
        throw new HostException("move_pages(" + pages.length + " pages)", Errno.EPERM);
      };

  @Test
  void reproducesSeed004ThreadOnNode4FindsItsPagesOnNode5() {
    HostPaths host = Fixtures.atlas800tA3();
    NumaTopology topology = NumaTopology.read(host);
    // The probe pins to the first 8 CPUs of node 4, as the seed's worker did.
    List<Integer> pinned = topology.node(4).orElseThrow().cpus().subList(0, 8);
    int cpuNode = topology.nodeOfCpu(pinned.get(0)).orElseThrow().id();

    Placement placement = new PagePlacement(host, REFUSED, PAGE).of(BUFFER_FROM_NODE_4, MIB_16);

    assertThat(cpuNode).isEqualTo(4);
    assertThat(placement.method()).isEqualTo("numa_maps");
    assertThat(placement.dominantNode()).contains(5);
    assertThat(placement.ratio(5)).isEqualTo(1.0);
    assertThat(placement.totalPages()).isEqualTo(MIB_16 / PAGE);
  }

  @Test
  void reproducesSeed004ThreadOnNode5FindsItsPagesOnNode7() {
    Placement placement =
        new PagePlacement(Fixtures.atlas800tA3(), REFUSED, PAGE).of(BUFFER_FROM_NODE_5, MIB_16);
    assertThat(placement.dominantNode()).contains(7);
    assertThat(placement.ratio(7)).isEqualTo(1.0);
  }

  @Test
  void eprmFromMovePagesFallsBackToNumaMapsAfterTryingIt() {
    List<long[]> asked = new ArrayList<>();
    PageNodeQuery refusedAndRecorded =
        pages -> {
          asked.add(pages);
          return REFUSED.nodesOf(pages);
        };

    Placement placement =
        new PagePlacement(Fixtures.atlas800tA3(), refusedAndRecorded, PAGE)
            .of(BUFFER_FROM_NODE_4, MIB_16);

    assertThat(asked).hasSize(1);
    assertThat(asked.get(0)).hasSize(4096).startsWith(BUFFER_FROM_NODE_4);
    assertThat(placement.method()).isEqualTo(Placement.NUMA_MAPS);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(5, 4096L));
  }

  @Test
  void movePagesAnswerIsCountedPerNodeIgnoringAbsentPages() {
    PageNodeQuery answer =
        pages -> {
          int[] status = new int[pages.length];
          for (int i = 0; i < pages.length; i++) {
            status[i] = i % 4 == 3 ? -Errno.ENOENT : (i % 4 == 2 ? 7 : 5);
          }
          return status;
        };

    Placement placement =
        new PagePlacement(Fixtures.atlas800tA3(), answer, PAGE).of(BUFFER_FROM_NODE_4, 8 * PAGE);

    assertThat(placement.method()).isEqualTo("move_pages");
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(5, 4L, 7, 2L));
    assertThat(placement.dominantNode()).contains(5);
    assertThat(placement.ratio(5)).isEqualTo(4.0 / 6);
  }

  @Test
  void unreadableNumaMapsIsUnknownNotAnException(@TempDir Path empty) {
    HostPaths nowhere = new HostPaths(empty.resolve("no-proc"), empty.resolve("no-sys"));
    PagePlacement placement = new PagePlacement(nowhere, REFUSED, PAGE);

    assertThatCode(() -> placement.of(BUFFER_FROM_NODE_4, MIB_16)).doesNotThrowAnyException();
    Placement unknown = placement.of(BUFFER_FROM_NODE_4, MIB_16);
    assertThat(unknown.method()).isEqualTo("unknown");
    assertThat(unknown.known()).isFalse();
    assertThat(unknown.dominantNode()).isEmpty();
  }

  @Test
  void addressOutsideEveryMappingIsUnknown() {
    Placement placement =
        new PagePlacement(Fixtures.atlas800tA3(), REFUSED, PAGE).of(0x1000L, PAGE);
    assertThat(placement.method()).isEqualTo("unknown");
  }

  @Test
  void bufferSpanningMappingsAddsTheirCounts() {
    // From the node-4 buffer through the guard pages into the node-5 buffer.
    long bytes = BUFFER_FROM_NODE_5 + MIB_16 - BUFFER_FROM_NODE_4;
    Placement placement =
        new PagePlacement(Fixtures.atlas800tA3(), REFUSED, PAGE).of(BUFFER_FROM_NODE_4, bytes);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(5, 4096L, 7, 4096L));
    assertThat(placement.ratio(5)).isEqualTo(0.5);
  }

  @Test
  void hugePagesAreCountedInBasePages() {
    // hugetlbfs mapping with one 1 GiB page on node 0.
    Placement placement =
        new PagePlacement(Fixtures.atlas800tA3(), REFUSED, PAGE).of(0x7f2c50000000L, 1L << 30);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(0, (1L << 30) / PAGE));
  }

  @Test
  void samplesAtMost4096PagesSpreadOverTheBufferFirstAndLastIncluded() {
    PagePlacement placement = new PagePlacement(Fixtures.atlas800tA3(), REFUSED, PAGE);
    long start = 0x7f0000000000L;

    long[] big = placement.samplePages(start, 1L << 30);
    assertThat(big).hasSize(4096);
    assertThat(big[0]).isEqualTo(start);
    assertThat(big[4095]).isEqualTo(start + (1L << 30) - PAGE);
    assertThat(java.util.Arrays.stream(big).allMatch(a -> a % PAGE == 0)).isTrue();
    assertThat(big).doesNotHaveDuplicates();

    // An unaligned small buffer straddling a page boundary covers both pages.
    assertThat(placement.samplePages(start + 100, PAGE)).containsExactly(start, start + PAGE);
    assertThat(placement.samplePages(start, 1)).containsExactly(start);
  }
}
