package io.linkwatch.cli;

import io.linkwatch.worker.WorkerMain;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code linkwatch worker}: used by the agent, not by people. Reads one probe request as JSON on
 * stdin and prints the run's result as JSON on stdout.
 */
@Command(
    name = "worker",
    hidden = true,
    description = "Internal: run one probe for the agent and print its result as JSON.")
final class WorkerCommand implements Callable<Integer> {
  @Override
  public Integer call() throws IOException {
    return WorkerMain.run(System.in, System.out);
  }
}
