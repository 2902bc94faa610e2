package io.linkwatch.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BucketRingTest {
  @Test
  void keepsTheLastFigureOfEachBucketForAsManyBucketsAsItHas() {
    BucketRing ring = new BucketRing(4);
    ring.put(100, 1.0);
    ring.put(100, 2.0);
    ring.put(101, 3.0);
    assertThat(ring.get(100)).isEqualTo(2.0f);
    assertThat(ring.get(101)).isEqualTo(3.0f);
    assertThat(ring.get(102)).isNaN();
    // Bucket 104 reuses bucket 100's slot: 100 is gone, 101 stays.
    ring.put(104, 5.0);
    assertThat(ring.get(100)).isNaN();
    assertThat(ring.get(101)).isEqualTo(3.0f);
    assertThat(ring.get(104)).isEqualTo(5.0f);
    assertThat(ring.newest()).isEqualTo(104);
  }

  @Test
  void aGapLongerThanTheRingClearsEverySlotAndOldFiguresAreIgnored() {
    BucketRing ring = new BucketRing(4);
    ring.put(10, 1.0);
    ring.put(11, 2.0);
    ring.put(30, 7.0);
    for (long b = 27; b < 30; b++) {
      assertThat(ring.get(b)).as("bucket %d", b).isNaN();
    }
    assertThat(ring.get(30)).isEqualTo(7.0f);
    // Too old for the window that ends at 30: not written over a live slot.
    ring.put(26, 9.0);
    assertThat(ring.get(26)).isNaN();
    assertThat(ring.get(30)).isEqualTo(7.0f);
    // A late figure inside the window still lands.
    ring.put(28, 4.0);
    assertThat(ring.get(28)).isEqualTo(4.0f);
  }
}
