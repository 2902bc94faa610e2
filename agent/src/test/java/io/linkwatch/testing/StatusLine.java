package io.linkwatch.testing;

import java.time.Duration;
import java.util.Map;

/** The first line of {@code linkwatch status --url URL}, as a health-check program reads it. */
public final class StatusLine {
  private StatusLine() {}

  public static String of(String url) throws Exception {
    JavaProcess.Result r =
        JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--url", url);
    return r.out().lines().findFirst().orElse("");
  }

  /**
   * Polls the first line until it starts with {@code prefix}, for at most {@code limit}; returns
   * the last line read, whatever it says, for the caller to assert on.
   */
  public static String await(String url, String prefix, Duration limit) throws Exception {
    long until = System.nanoTime() + limit.toNanos();
    String line = of(url);
    while (!line.startsWith(prefix) && System.nanoTime() < until) {
      Thread.sleep(500);
      line = of(url);
    }
    return line;
  }
}
