package io.linkwatch.cli;

import io.linkwatch.host.HostPaths;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code linkwatch} command. Exit codes: 0 success, 1 a probe target failed, 2 bad usage,
 * configuration or a missing backend library.
 */
@Command(
    name = "linkwatch",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Active link probes for accelerator servers, published as Prometheus metrics.",
    subcommands = {
      RunCommand.class,
      ProbeCommand.class,
      TopoCommand.class,
      CompareCommand.class,
      StatusCommand.class,
      CheckCommand.class,
      CheckConfigCommand.class
    })
public final class Main {
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  /** A one-shot probe left a device alone because it ran other work. */
  public static final int EXIT_DEVICE_BUSY = 3;

  public static void main(String[] args) {
    LeanDefaults.apply(System.getProperties());
    System.exit(execute(args));
  }

  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  /** The whole command line, with a {@code probe} subcommand for every probe. */
  public static CommandLine commandLine() {
    return commandLine(HostPaths.system());
  }

  /** The command line with NUMA nodes looked up under {@code hostPaths} (for tests). */
  static CommandLine commandLine(HostPaths hostPaths) {
    CommandLine cli = configure(new CommandLine(new Main()));
    ProbeCommand.addProbes(cli.getSubcommands().get("probe"), hostPaths);
    return cli;
  }

  /** One line for a usage error (with a pointer to --help), exit 2; see {@link ErrorHandler}. */
  private static CommandLine configure(CommandLine cli) {
    cli.setExecutionExceptionHandler(new ErrorHandler());
    cli.setParameterExceptionHandler(
        (e, args) -> {
          e.getCommandLine().getErr().println("linkwatch: " + e.getMessage());
          e.getCommandLine().getErr().flush();
          return EXIT_USAGE;
        });
    return cli;
  }

  /** Runs a command with its output and errors sent to the given writers (for tests, embedding). */
  public static int execute(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
    CommandLine cli = commandLine();
    cli.setOut(out);
    cli.setErr(err);
    return cli.execute(args);
  }
}
