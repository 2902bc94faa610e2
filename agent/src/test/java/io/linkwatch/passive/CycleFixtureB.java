package io.linkwatch.passive;

import io.linkwatch.activity.CycleFixtureA;

/** The other half of the deliberate package cycle of {@code LayeringTest}. */
public final class CycleFixtureB {
  private CycleFixtureB() {}

  public static int depth(int n) {
    return n <= 0 ? 0 : 1 + CycleFixtureA.depth(n - 1);
  }
}
