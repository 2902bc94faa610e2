package io.linkwatch.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void medianOfOddAndEvenCounts() {
    assertThat(Stats.median(new double[] {3, 1, 2})).isEqualTo(2);
    assertThat(Stats.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
  }

  @Test
  void p99IsANearestRankSample() {
    double[] fifty = new double[50];
    for (int i = 0; i < 50; i++) {
      fifty[i] = i + 1;
    }
    assertThat(Stats.quantile(fifty, 0.99)).isEqualTo(50);
    double[] hundred = new double[100];
    for (int i = 0; i < 100; i++) {
      hundred[i] = i + 1;
    }
    assertThat(Stats.quantile(hundred, 0.99)).isEqualTo(99);
  }
}
