package io.linkwatch.cli;

import picocli.CommandLine.Option;

/**
 * {@code --iterations} and {@code --warmup}, shared by every measuring command. Unset, each command
 * uses its probe's default (the same as the config file's).
 */
final class Repetitions {
  @Option(
      names = "--iterations",
      paramLabel = "N",
      description =
          "Timed repetitions per figure (median; p99 too for allreduce). Default: the probe's.")
  Integer iterations;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      description = "Untimed repetitions first. Default: the probe's.")
  Integer warmup;

  int iterations(int fallback) {
    int n = iterations == null ? fallback : iterations;
    if (n < 1) {
      throw new UsageException("--iterations must be at least 1, not " + n);
    }
    return n;
  }

  int warmup(int fallback) {
    int n = warmup == null ? fallback : warmup;
    if (n < 0) {
      throw new UsageException("--warmup must not be negative, not " + n);
    }
    return n;
  }
}
