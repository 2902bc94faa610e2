package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page placement on a kernel with 64 KiB base pages (many aarch64 kernels: openEuler and Kylin on
 * Kunpeng 920), where a 16 MiB buffer is 256 pages, numa_maps counts in 64 KiB pages and a
 * hugetlbfs page is 512 MiB. The x86_64 CI host has 4 KiB pages, so the size is passed in.
 */
class PagePlacement64KibTest {
  private static final long PAGE = 64 << 10;
  private static final long MIB_16 = 16L << 20;
  private static final long BUFFER_ON_2 = 0xffff80000000L;
  private static final long BUFFER_ON_2_AND_3 = 0xffff81010000L;
  private static final long HUGE_512M = 0xffffa0000000L;

  private static final PageNodeQuery REFUSED =
      pages -> {
        throw new HostException("move_pages(" + pages.length + " pages)", Errno.EPERM);
      };

  private HostPaths host;

  @BeforeEach
  void kunpengProcSelf(@TempDir Path root) throws IOException {
    Path self = Files.createDirectories(root.resolve("proc/self"));
    Files.writeString(
        self.resolve("maps"),
        """
        ffff80000000-ffff81000000 rw-p 00000000 00:00 0
        ffff81000000-ffff81010000 ---p 00000000 00:00 0
        ffff81010000-ffff82010000 rw-p 00000000 00:00 0
        ffffa0000000-ffffc0000000 rw-s 00000000 00:2f 40177                      /dev/hugepages/buf
        """);
    Files.writeString(
        self.resolve("numa_maps"),
        """
        ffff80000000 default anon=256 dirty=256 active=0 N2=256 kernelpagesize_kB=64
        ffff81000000 default
        ffff81010000 default anon=256 dirty=256 N2=128 N3=128 kernelpagesize_kB=64
        ffffa0000000 bind:0 file=/dev/hugepages/buf huge dirty=1 N0=1 kernelpagesize_kB=524288
        """);
    host = new HostPaths(root.resolve("proc"), root.resolve("sys"));
  }

  @Test
  void numaMapsCountsSixtyFourKibPages() {
    Placement placement = new PagePlacement(host, REFUSED, PAGE).of(BUFFER_ON_2, MIB_16);
    assertThat(placement.method()).isEqualTo(Placement.NUMA_MAPS);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(2, 256L));
    assertThat(placement.totalPages()).isEqualTo(MIB_16 / PAGE);
    assertThat(placement.ratio(2)).isEqualTo(1.0);
  }

  @Test
  void bufferOverTwoMappingsAndTheGuardPageAddsTheirCounts() {
    long bytes = BUFFER_ON_2_AND_3 + MIB_16 - BUFFER_ON_2;
    Placement placement = new PagePlacement(host, REFUSED, PAGE).of(BUFFER_ON_2, bytes);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(2, 384L, 3, 128L));
    assertThat(placement.ratio(3)).isEqualTo(0.25);
  }

  @Test
  void aHalfGibHugePageIsCountedInSixtyFourKibPages() {
    Placement placement = new PagePlacement(host, REFUSED, PAGE).of(HUGE_512M, 512L << 20);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(0, (512L << 20) / PAGE));
  }

  @Test
  void movePagesIsAskedOncePerSixtyFourKibPage() {
    List<long[]> asked = new ArrayList<>();
    PageNodeQuery allOnNode2 =
        pages -> {
          asked.add(pages);
          int[] status = new int[pages.length];
          Arrays.fill(status, 2);
          return status;
        };
    Placement placement = new PagePlacement(host, allOnNode2, PAGE).of(BUFFER_ON_2, MIB_16);

    assertThat(asked).hasSize(1);
    assertThat(asked.get(0)).hasSize(256).startsWith(BUFFER_ON_2);
    assertThat(asked.get(0)[255]).isEqualTo(BUFFER_ON_2 + MIB_16 - PAGE);
    assertThat(Arrays.stream(asked.get(0)).allMatch(a -> a % PAGE == 0)).isTrue();
    assertThat(placement.method()).isEqualTo(Placement.MOVE_PAGES);
    assertThat(placement.pagesByNode()).isEqualTo(Map.of(2, 256L));
  }

  @Test
  void samplingSpreadsOverSixtyFourKibPages() {
    PagePlacement placement = new PagePlacement(host, REFUSED, PAGE);
    long start = 0xffff00000000L;

    long[] big = placement.samplePages(start, 1L << 30); // 16384 pages, 4096 sampled
    assertThat(big).hasSize(PagePlacement.MAX_SAMPLED_PAGES).doesNotHaveDuplicates();
    assertThat(big[0]).isEqualTo(start);
    assertThat(big[big.length - 1]).isEqualTo(start + (1L << 30) - PAGE);
    assertThat(Arrays.stream(big).allMatch(a -> a % PAGE == 0)).isTrue();

    // 4 KiB-aligned is not page-aligned here: a 64 KiB buffer at +4 KiB covers two pages.
    assertThat(placement.samplePages(start + 4096, PAGE)).containsExactly(start, start + PAGE);
    assertThat(placement.samplePages(start + 4096, 4096)).containsExactly(start);
  }
}
