package io.linkwatch.history;

import java.util.Arrays;

/**
 * The figures of one series over the last {@code buckets} time buckets: one float per bucket (the
 * last figure measured in it, NaN where none was), in an array allocated once and reused as time
 * goes round, so a series costs the same after a day as after a minute. Floats, because a chart
 * needs no more than their 7 digits and they halve the memory.
 *
 * <p>Bucket numbers count steps since the epoch; slot {@code b % buckets} holds bucket {@code b}
 * while {@code b} is one of the last {@code buckets} up to the newest written.
 */
final class BucketRing {
  private final float[] values;
  private long newest = -1;

  BucketRing(int buckets) {
    values = new float[buckets];
    Arrays.fill(values, Float.NaN);
  }

  /** Sets bucket {@code bucket}'s figure; a bucket older than the ring holds is ignored. */
  void put(long bucket, double value) {
    int n = values.length;
    if (newest >= 0 && bucket <= newest - n) {
      return;
    }
    if (bucket > newest) {
      // The slots between the newest bucket and this one held figures a whole ring ago: clear.
      long from = newest < 0 ? bucket : Math.max(newest + 1, bucket - n + 1);
      for (long b = from; b <= bucket; b++) {
        values[(int) (b % n)] = Float.NaN;
      }
      newest = bucket;
    }
    values[(int) (bucket % n)] = (float) value;
  }

  /** The newest bucket written, -1 before the first figure. */
  long newest() {
    return newest;
  }

  /**
   * Bucket {@code bucket}'s figure, NaN when there is none (not measured, or no longer or not yet
   * held).
   */
  float get(long bucket) {
    if (newest < 0 || bucket > newest || bucket <= newest - values.length || bucket < 0) {
      return Float.NaN;
    }
    return values[(int) (bucket % values.length)];
  }
}
