package io.linkwatch.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code linkwatch worker}. */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = "Internal: run one probe for the agent and print its result as JSON.")
final class WorkerCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("worker is not built yet");
  }
}
