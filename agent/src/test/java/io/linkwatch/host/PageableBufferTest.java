package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Real mmap, real first touch, real /proc and /sys of the machine running the tests. */
class PageableBufferTest {
  private static final Logger LOG = LoggerFactory.getLogger(PageableBufferTest.class);
  private static final long MIB_16 = 16L << 20;

  @Test
  void mapsPageAlignedUntouchedMemory() {
    try (PageableBuffer buffer = PageableBuffer.map(MIB_16 + 1)) {
      assertThat(buffer.size()).isEqualTo(MIB_16 + 1);
      assertThat(buffer.address() % buffer.pageSize()).isZero();
      assertThat(buffer.address() % 4096).isZero();

      Placement untouched = PagePlacement.system().of(buffer.address(), buffer.size());
      assertThat(untouched.totalPages()).isZero();
    }
  }

  @Test
  void writesAndReadsBackWithinBounds() {
    try (PageableBuffer buffer = PageableBuffer.map(8192)) {
      buffer.write(4090, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 8);
      byte[] back = new byte[8];
      buffer.read(4090, back, 8);
      assertThat(back).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
      assertThatThrownBy(() -> buffer.write(8190, new byte[4], 4))
          .isInstanceOf(IndexOutOfBoundsException.class);
    }
  }

  @Test
  void refusesAccessAfterCloseInsteadOfCrashing() {
    PageableBuffer buffer = PageableBuffer.map(4096);
    buffer.close();
    buffer.close();
    assertThatThrownBy(() -> buffer.read(0, new byte[1], 1))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(buffer::firstTouch).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void bufferFirstTouchedFromNode0IsFoundOnNode0() {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/sys/devices/system/node/online")));
    NumaTopology topology = NumaTopology.read(HostPaths.system());
    NumaNode node0 = topology.node(0).orElseThrow();
    Assumptions.assumeTrue(node0.hasCpus() && node0.hasMemory(), "node 0 has CPUs and memory");
    List<Integer> cpus = node0.cpus().stream().filter(ThreadAffinity.current()::contains).toList();
    Assumptions.assumeFalse(cpus.isEmpty(), "this thread may run on node 0");
    List<Integer> before = ThreadAffinity.current();

    try (PageableBuffer buffer = PageableBuffer.map(MIB_16)) {
      ThreadAffinity.runPinned(
          cpus,
          () -> {
            buffer.firstTouch();
            return null;
          });
      assertThat(ThreadAffinity.current()).isEqualTo(before);

      Placement placement = PagePlacement.system().of(buffer.address(), buffer.size());
      LOG.info("16 MiB first-touched on node 0's CPUs {}: {}", CpuList.format(cpus), placement);

      assertThat(placement.method()).isIn("move_pages", "numa_maps");
      assertThat(placement.dominantNode()).contains(0);
      assertThat(placement.ratio(0)).isEqualTo(1.0);
      // move_pages samples every page of 16 MiB (4096 pages of 4 KiB); numa_maps counts the
      // buffer's own mapping: either way, all the buffer's pages and no one else's.
      assertThat(placement.totalPages())
          .isEqualTo(Math.min(MIB_16 / buffer.pageSize(), PagePlacement.MAX_SAMPLED_PAGES));
    }
  }

  @Test
  void numaMapsAloneFindsTheBufferOnItsOwnMapping() {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/numa_maps")));
    PageNodeQuery refused =
        pages -> {
          throw new HostException("move_pages", Errno.EPERM);
        };
    try (PageableBuffer buffer = PageableBuffer.map(MIB_16)) {
      buffer.firstTouch();
      Placement placement =
          new PagePlacement(HostPaths.system(), refused).of(buffer.address(), MIB_16);
      assertThat(placement.method()).isEqualTo("numa_maps");
      // The guard pages keep the kernel from merging the buffer into a neighbouring mapping.
      assertThat(placement.totalPages()).isEqualTo(MIB_16 / buffer.pageSize());
    }
  }

  @Test
  void realMovePagesAnswersForTouchedPagesOrIsRefusedWithAnErrno() {
    try (PageableBuffer buffer = PageableBuffer.map(4 * 4096)) {
      buffer.write(0, new byte[] {1}, 1);
      long page = buffer.pageSize();
      long[] pages = {buffer.address(), buffer.address() + page};
      try {
        int[] status = MovePagesQuery.system().nodesOf(pages);
        assertThat(status[0]).isGreaterThanOrEqualTo(0);
        // Never touched: not present (move_pages does not fault it in).
        assertThat(status[1]).isIn(-Errno.ENOENT, -Errno.EFAULT);
      } catch (HostException e) {
        assertThat(e.errno()).isPresent();
        LOG.info("move_pages refused here: {}", e.getMessage());
      }
    }
  }
}
