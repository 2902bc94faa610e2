package io.linkwatch.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code linkwatch topo}. */
@Command(
    name = "topo",
    mixinStandardHelpOptions = true,
    description = "Print the device link matrix and inventory.")
final class TopoCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("topo is not built yet");
  }
}
