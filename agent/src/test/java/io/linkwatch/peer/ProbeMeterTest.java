package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.HandClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProbeMeterTest {
  @Test
  void secondPassesStopAtTheBudgetAndResumeAsTheHourMovesOn() {
    HandClock clock = new HandClock(java.time.Instant.parse("2026-12-07T00:00:00Z"));
    ProbeMeter meter = new ProbeMeter(16, clock);
    for (int i = 0; i < 10; i++) {
      meter.record(); // answers: always counted
    }
    clock.now = clock.now.plus(Duration.ofMinutes(30));
    for (int i = 0; i < 6; i++) {
      assertThat(meter.tryTake()).isTrue();
    }
    assertThat(meter.tryTake()).as("the 17th probe of the hour").isFalse();
    assertThat(meter.lastHour()).isEqualTo(16);
    clock.now = clock.now.plus(Duration.ofMinutes(31)); // the first ten are over an hour old
    assertThat(meter.lastHour()).isEqualTo(6);
    assertThat(meter.tryTake()).isTrue();
  }
}
