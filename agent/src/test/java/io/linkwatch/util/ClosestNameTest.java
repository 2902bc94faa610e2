package io.linkwatch.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClosestNameTest {
  @Test
  void aTypoGetsTheNameAndAnUnrelatedWordNothing() {
    List<String> keys = List.of("enabled", "every", "sizes");
    assertThat(ClosestName.of("sizse", keys)).contains("sizes");
    assertThat(ClosestName.of("SIZES", keys)).contains("sizes");
    assertThat(ClosestName.of("iterations", keys)).isEmpty();
    assertThat(ClosestName.of("nosuch", List.of("p2p", "allreduce", "topology"))).isEmpty();
    assertThat(ClosestName.of("allreduse", List.of("p2p", "allreduce"))).contains("allreduce");
    assertThat(ClosestName.of("x", List.of())).isEmpty();
  }
}
