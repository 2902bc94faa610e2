package io.linkwatch.cli;

import io.linkwatch.config.ConfigException;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.util.LogSetup;
import java.io.PrintWriter;
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
      printLines(cli.getErr(), e.getMessage());
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

  /**
   * Prints a message of one or more lines (a configuration with several problems has one line each)
   * with {@code linkwatch: } before every line, so that each can be grepped, and none looks like
   * output of the command.
   */
  static void printLines(PrintWriter err, String message) {
    for (String line : message.split("\\R")) {
      err.println("linkwatch: " + line);
    }
  }
}
