package io.linkwatch.util;

import io.linkwatch.cli.UsageException;

/**
 * A deliberate back edge for {@code LayeringTest}: a class of the lowest layer that uses the CLI.
 * It lives with the tests only, so the agent's own classes never hold it.
 */
public final class BackEdgeFixture {
  private BackEdgeFixture() {}

  public static RuntimeException refuse(String why) {
    return new UsageException(why);
  }
}
