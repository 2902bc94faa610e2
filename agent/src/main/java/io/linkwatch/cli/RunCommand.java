package io.linkwatch.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code linkwatch run}. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run the agent: scheduled probes, served on /metrics.")
final class RunCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("run is not built yet");
  }
}
