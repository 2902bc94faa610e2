package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcMapsTest {
  @Test
  void parsesRangesPermsAndPaths() {
    List<MapsRange> ranges =
        ProcMaps.parse(
            """
            55d0c8a00000-55d0c8a3e000 r--p 00000000 fd:01 1835123                    /usr/bin/python3.11
            7f2c40000000-7f2c41000000 rw-p 00000000 00:00 0\s
            7f2ca0000000-7f2ca0400000 r--s 00000000 fd:01 2237451   /data/model weights/shard 0.bin
            7ffd8e1c4000-7ffd8e1e5000 rw-p 00000000 00:00 0                          [stack]
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            """);

    assertThat(ranges).hasSize(5);
    assertThat(ranges.get(0))
        .isEqualTo(new MapsRange(0x55d0c8a00000L, 0x55d0c8a3e000L, "r--p", "/usr/bin/python3.11"));
    assertThat(ranges.get(1).anonymous()).isTrue();
    assertThat(ranges.get(1).contains(0x7f2c40000000L)).isTrue();
    assertThat(ranges.get(1).contains(0x7f2c40ffffffL)).isTrue();
    assertThat(ranges.get(1).contains(0x7f2c41000000L)).isFalse();
    assertThat(ranges.get(2).path()).isEqualTo("/data/model weights/shard 0.bin");
    assertThat(ranges.get(3).path()).isEqualTo("[stack]");
  }

  @Test
  void kernelAddressesAboveLongMaxCompareUnsigned() {
    MapsRange vsyscall =
        ProcMaps.parse("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]").get(0);
    assertThat(vsyscall.contains(0xffffffffff600800L)).isTrue();
    assertThat(vsyscall.contains(0x7f2c40000000L)).isFalse();
    assertThat(vsyscall.overlaps(0x1000L, 0x2000L)).isFalse();
  }

  @Test
  void overlapIsHalfOpen() {
    MapsRange r = new MapsRange(0x1000, 0x3000, "rw-p", "");
    assertThat(r.overlaps(0x0, 0x1000)).isFalse();
    assertThat(r.overlaps(0x0, 0x1001)).isTrue();
    assertThat(r.overlaps(0x2fff, 0x5000)).isTrue();
    assertThat(r.overlaps(0x3000, 0x5000)).isFalse();
  }

  @Test
  void rejectsANonMapsLine() {
    assertThatThrownBy(() -> ProcMaps.parse("hello world"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hello world");
  }
}
