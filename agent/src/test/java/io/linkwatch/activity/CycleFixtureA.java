package io.linkwatch.activity;

import io.linkwatch.passive.CycleFixtureB;

/** One half of a deliberate package cycle for {@code LayeringTest} (the other is in passive). */
public final class CycleFixtureA {
  private CycleFixtureA() {}

  public static int depth(int n) {
    return n <= 0 ? 0 : 1 + CycleFixtureB.depth(n - 1);
  }
}
