package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {
  @Test
  void dominantNodeAndRatios() {
    Placement p = new Placement(Placement.MOVE_PAGES, Map.of(0, 300L, 1, 100L));
    assertThat(p.known()).isTrue();
    assertThat(p.totalPages()).isEqualTo(400);
    assertThat(p.dominantNode()).contains(0);
    assertThat(p.ratio(0)).isCloseTo(0.75, within(1e-12));
    assertThat(p.ratio(1)).isCloseTo(0.25, within(1e-12));
    assertThat(p.ratio(7)).isZero();
  }

  @Test
  void tieGoesToTheLowerNode() {
    assertThat(new Placement(Placement.NUMA_MAPS, Map.of(3, 5L, 1, 5L)).dominantNode()).contains(1);
  }

  @Test
  void unknownAndEmptyHaveNoDominantNodeAndNoNaN() {
    assertThat(Placement.unknown().known()).isFalse();
    assertThat(Placement.unknown().method()).isEqualTo("unknown");
    assertThat(Placement.unknown().dominantNode()).isEmpty();
    assertThat(Placement.unknown().ratio(0)).isZero();
    Placement untouched = new Placement(Placement.NUMA_MAPS, Map.of());
    assertThat(untouched.known()).isTrue();
    assertThat(untouched.dominantNode()).isEmpty();
  }
}
