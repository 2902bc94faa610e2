package io.linkwatch.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code linkwatch check-config}. */
@Command(
    name = "check-config",
    mixinStandardHelpOptions = true,
    description = "Validate a configuration file without starting anything.")
final class CheckConfigCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("check-config is not built yet");
  }
}
