package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CpuListTest {
  @Test
  void parsesRangesAndSingles() {
    List<Integer> cpus = CpuList.parse("0-23,96-119\n");
    assertThat(cpus).hasSize(48).startsWith(0, 1).contains(23, 96, 119).doesNotContain(24, 95);
    assertThat(CpuList.parse("4")).containsExactly(4);
    assertThat(CpuList.parse("3,1,1-2")).containsExactly(1, 2, 3);
  }

  @Test
  void emptyCpulistOfAMemoryOnlyNodeIsEmpty() {
    assertThat(CpuList.parse("\n")).isEmpty();
  }

  @Test
  void parsesStrides() {
    assertThat(CpuList.parse("0-15:2/4")).containsExactly(0, 1, 4, 5, 8, 9, 12, 13);
  }

  @Test
  void rejectsWhatIsNotAList() {
    assertThatThrownBy(() -> CpuList.parse("0-x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0-x");
    assertThatThrownBy(() -> CpuList.parse("5-2")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void formatsAsShortestRanges() {
    assertThat(CpuList.format(List.of(8, 0, 1, 2, 3))).isEqualTo("0-3,8");
    assertThat(CpuList.format(List.of())).isEmpty();
    List<Integer> node4 = IntStream.rangeClosed(320, 399).boxed().toList();
    assertThat(CpuList.format(node4)).isEqualTo("320-399");
    assertThat(CpuList.parse(CpuList.format(node4))).isEqualTo(node4);
  }
}
