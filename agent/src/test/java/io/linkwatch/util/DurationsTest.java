package io.linkwatch.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void parsesPrometheusStyleDurations() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("2d")).isEqualTo(Duration.ofDays(2));
  }

  @Test
  void rejectsZeroAndGarbage() {
    assertThatThrownBy(() -> Durations.parse("0s")).hasMessageContaining("above 0");
    assertThatThrownBy(() -> Durations.parse("5 minutes")).hasMessageContaining("not a duration");
    assertThatThrownBy(() -> Durations.parse("5")).hasMessageContaining("not a duration");
    assertThatThrownBy(() -> Durations.parse("m5")).hasMessageContaining("not a duration");
  }

  @Test
  void formatsRoundTrip() {
    for (String s : new String[] {"5m", "1h", "30s", "250ms"}) {
      assertThat(Durations.format(Durations.parse(s))).isEqualTo(s);
    }
  }
}
