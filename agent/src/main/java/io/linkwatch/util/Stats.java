package io.linkwatch.util;

import java.util.Arrays;

/** Order statistics over a run's samples. */
public final class Stats {
  private Stats() {}

  public static double median(double[] samples) {
    return quantile(samples, 0.5);
  }

  /**
   * The nearest-rank quantile ({@code ceil(q * n)}-th smallest), so p99 of 50 samples is the
   * largest sample: it never invents a value between two samples.
   */
  public static double quantile(double[] samples, double q) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    if (q == 0.5 && sorted.length % 2 == 0) {
      int mid = sorted.length / 2;
      return (sorted[mid - 1] + sorted[mid]) / 2;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
