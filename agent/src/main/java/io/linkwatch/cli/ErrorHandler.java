package io.linkwatch.cli;

import io.linkwatch.config.ConfigException;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.util.LogSetup;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns the errors an operator can fix into one line and exit code 2, without a stack trace.
 * Anything else is a bug: one line naming it and how to see more, exit 1; its stack trace only with
 * {@code --log.level debug}.
 */
final class ErrorHandler implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception e, CommandLine cli, ParseResult parsed) {
    if (e instanceof BackendUnavailableException
        || e instanceof ConfigException
        || e instanceof UsageException) {
      if (e instanceof ConfigException) {
        // A config error lists every problem of the file, one a line: each gets the prefix.
        e.getMessage().lines().forEach(l -> cli.getErr().println("linkwatch: " + l));
      } else {
        cli.getErr().println("linkwatch: " + e.getMessage()); // prefixed line by line already
      }
      return Main.EXIT_USAGE;
    }
    if (LogSetup.debug()) {
      cli.getErr().println("linkwatch: unexpected error, please report it:");
      e.printStackTrace(cli.getErr());
    } else {
      cli.getErr()
          .println(
              "linkwatch: unexpected error: "
                  + e
                  + " (please report it, with the stack trace that --log.level debug shows)");
    }
    return Main.EXIT_FAILED;
  }
}
