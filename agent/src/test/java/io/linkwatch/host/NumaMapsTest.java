package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NumaMapsTest {
  @Test
  void anonymousBufferWithPagesOnOneNode() {
    NumaMapsEntry e =
        NumaMaps.parse(
                """
                7f2c40000000 default anon=4096 dirty=4096 active=0 N5=4096 kernelpagesize_kB=4
                """)
            .get(0);

    assertThat(e)
        .isEqualTo(
            new NumaMapsEntry(
                0x7f2c40000000L,
                "default",
                Optional.empty(),
                false,
                false,
                false,
                4096,
                4096,
                0,
                Map.of(5, 4096L),
                4));
    assertThat(e.totalPages()).isEqualTo(4096);
  }

  @Test
  void everyPolicyForm() {
    List<NumaMapsEntry> entries =
        NumaMaps.parse(
            """
            1000 default anon=1 N0=1 kernelpagesize_kB=4
            2000 bind:0 anon=1 N0=1 kernelpagesize_kB=4
            3000 interleave:0-3 anon=4 N0=1 N1=1 N2=1 N3=1 kernelpagesize_kB=4
            4000 prefer:1 anon=1 N1=1 kernelpagesize_kB=4
            5000 local anon=1 N0=1 kernelpagesize_kB=4
            6000 prefer (many):0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4
            7000 weighted interleave:0-7 anon=8 N0=1 N1=1 N2=1 N3=1 N4=1 N5=1 N6=1 N7=1 kernelpagesize_kB=4
            8000 interleave=static:0-3 anon=1 N2=1 kernelpagesize_kB=4
            9000 bind=relative:0-1 anon=1 N1=1 kernelpagesize_kB=4
            a000 prefer (many)=static|balancing:2-3 anon=1 N3=1 kernelpagesize_kB=4
            b000 weighted interleave=relative:0-1 anon=1 N0=1 kernelpagesize_kB=4
            c000 prefer=balancing:4 anon=1 N4=1 kernelpagesize_kB=4
            """);

    assertThat(entries)
        .extracting(NumaMapsEntry::policy)
        .containsExactly(
            "default",
            "bind:0",
            "interleave:0-3",
            "prefer:1",
            "local",
            "prefer (many):0-1",
            "weighted interleave:0-7",
            "interleave=static:0-3",
            "bind=relative:0-1",
            "prefer (many)=static|balancing:2-3",
            "weighted interleave=relative:0-1",
            "prefer=balancing:4");
    // The word after a two-word mode is not mistaken for a field: counts are intact.
    assertThat(entries.get(5).pagesByNode()).isEqualTo(Map.of(0, 1L, 1, 1L));
    assertThat(entries.get(6).pagesByNode()).hasSize(8);
    assertThat(entries.get(6).anon()).isEqualTo(8);

    assertThat(entries.get(0).memPolicy())
        .isEqualTo(new MemPolicy("default", List.of(), List.of()));
    assertThat(entries.get(2).memPolicy())
        .isEqualTo(new MemPolicy("interleave", List.of(), List.of(0, 1, 2, 3)));
    assertThat(entries.get(4).memPolicy()).isEqualTo(new MemPolicy("local", List.of(), List.of()));
    assertThat(entries.get(5).memPolicy())
        .isEqualTo(new MemPolicy("prefer (many)", List.of(), List.of(0, 1)));
    assertThat(entries.get(6).memPolicy().mode()).isEqualTo("weighted interleave");
    assertThat(entries.get(6).memPolicy().nodes()).hasSize(8);
    assertThat(entries.get(7).memPolicy())
        .isEqualTo(new MemPolicy("interleave", List.of("static"), List.of(0, 1, 2, 3)));
    assertThat(entries.get(9).memPolicy())
        .isEqualTo(new MemPolicy("prefer (many)", List.of("static", "balancing"), List.of(2, 3)));
    assertThat(entries.get(11).memPolicy())
        .isEqualTo(new MemPolicy("prefer", List.of("balancing"), List.of(4)));
  }

  @Test
  void fileHeapStackAndHugeFlags() {
    List<NumaMapsEntry> entries =
        NumaMaps.parse(
            """
            55d0c8a00000 default file=/usr/bin/python3.11 mapped=62 mapmax=8 N0=40 N4=22 kernelpagesize_kB=4
            7f2ca0000000 interleave:0-3 file=/data/model\\040weights/shard\\0400.bin mapped=4 N0=4 kernelpagesize_kB=4
            55d0c9e4f000 default heap anon=887 dirty=887 active=0 N5=887 kernelpagesize_kB=4
            7ffd8e1c4000 default stack anon=33 dirty=33 N5=33 kernelpagesize_kB=4
            7f2c50000000 bind:0 file=/dev/hugepages/libhccl_buf huge dirty=1 mapmax=2 N0=1 kernelpagesize_kB=1048576
            7f2d00000000 default file=/anon_hugepage\\040(deleted) huge anon=2 dirty=2 N1=2 kernelpagesize_kB=2048
            """);

    NumaMapsEntry python = entries.get(0);
    assertThat(python.file()).contains("/usr/bin/python3.11");
    assertThat(python.mapped()).isEqualTo(62);
    assertThat(python.anon()).isZero();
    assertThat(python.pagesByNode()).isEqualTo(Map.of(0, 40L, 4, 22L));

    assertThat(entries.get(1).file()).contains("/data/model weights/shard 0.bin");

    assertThat(entries.get(2).heap()).isTrue();
    assertThat(entries.get(2).stack()).isFalse();
    assertThat(entries.get(3).stack()).isTrue();

    NumaMapsEntry hugetlb = entries.get(4);
    assertThat(hugetlb.huge()).isTrue();
    assertThat(hugetlb.file()).contains("/dev/hugepages/libhccl_buf");
    assertThat(hugetlb.kernelPageSizeKb()).isEqualTo(1048576);
    assertThat(hugetlb.pagesByNode()).isEqualTo(Map.of(0, 1L));

    assertThat(entries.get(5).file()).contains("/anon_hugepage (deleted)");
    assertThat(entries.get(5).kernelPageSizeKb()).isEqualTo(2048);
  }

  @Test
  void linesWithoutPagesHaveNoCounts() {
    List<NumaMapsEntry> entries =
        NumaMaps.parse(
            """
            7f2c3ffff000 default
            7f2c60000000 prefer (many):0-1
            7f2c61000000 weighted interleave:0-7 file=/tmp/x
            """);

    assertThat(entries).allSatisfy(e -> assertThat(e.pagesByNode()).isEmpty());
    assertThat(entries).allSatisfy(e -> assertThat(e.kernelPageSizeKb()).isZero());
    assertThat(entries.get(1).policy()).isEqualTo("prefer (many):0-1");
    assertThat(entries.get(2).policy()).isEqualTo("weighted interleave:0-7");
    assertThat(entries.get(2).file()).contains("/tmp/x");
  }

  @Test
  void unknownFieldsAreSkippedAndOtherCountersIgnored() {
    NumaMapsEntry e =
        NumaMaps.parse(
                "7f00 interleave=static|balancing:2-3 swapcache=2 active=0 writeback=1"
                    + " futurefield=9 N2=1 N3=1 kernelpagesize_kB=4")
            .get(0);
    assertThat(e.pagesByNode()).isEqualTo(Map.of(2, 1L, 3, 1L));
  }

  @Test
  void rejectsALineWithoutAddress() {
    assertThatThrownBy(() -> NumaMaps.parse("default anon=1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void unescapesOctal() {
    assertThat(NumaMaps.unescape("a\\040b\\134c\\0")).isEqualTo("a b\\c\\0");
  }

  @Test
  void parsesTheFixtureOfEveryForm() throws IOException {
    List<NumaMapsEntry> entries =
        NumaMaps.parse(Files.readString(Fixtures.atlas800tA3().procfs().resolve("self/numa_maps")));
    assertThat(entries).hasSize(16);
    assertThat(entries)
        .extracting(NumaMapsEntry::policy)
        .contains("prefer (many)=relative:0-1", "weighted interleave:0-7", "bind:0", "local");
  }

  @Test
  void parsesThisProcessesRealNumaMaps() throws IOException {
    Path real = Path.of("/proc/self/numa_maps");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(real));
    List<NumaMapsEntry> entries = NumaMaps.parse(Files.readString(real));
    assertThat(entries).isNotEmpty();
    assertThat(entries).anySatisfy(e -> assertThat(e.totalPages()).isPositive());
  }
}
