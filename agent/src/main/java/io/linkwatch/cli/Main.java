package io.linkwatch.cli;

import io.linkwatch.host.HostPaths;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.util.ClosestName;
import io.linkwatch.util.LogSetup;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code linkwatch} command. Exit codes: 0 success, 1 a probe target failed, 2 bad usage,
 * configuration or a missing backend library. Every error is one line on stderr starting with
 * {@code linkwatch: }, naming the thing and what to do; a stack trace only with {@code --log.level
 * debug}.
 */
@Command(
    name = "linkwatch",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Active link probes for accelerator servers, published as Prometheus metrics.",
    footer = {
      "",
      "'linkwatch help COMMAND' or 'linkwatch COMMAND --help' shows a command's options.",
      "Sizes are written 64MiB or 1GB, durations 500ms, 30s or 5m, device pairs 0-1 or 0:1."
    },
    subcommands = {
      RunCommand.class,
      ProbeCommand.class,
      TopoCommand.class,
      CompareCommand.class,
      StatusCommand.class,
      CheckCommand.class,
      CheckConfigCommand.class,
      CommandLine.HelpCommand.class,
      CompletionCommand.class,
      ManPageCommand.class
    })
public final class Main implements Callable<Integer> {
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  /** A one-shot probe left a device alone because it ran other work. */
  public static final int EXIT_DEVICE_BUSY = 3;

  /** What {@code --log.level} takes. */
  static final List<String> LOG_LEVELS = List.of("debug", "info", "warn", "error");

  /** What {@code --log.format} takes, as the Prometheus exporters name them. */
  static final List<String> LOG_FORMATS = List.of("plain", "logfmt", "json");

  @Spec CommandSpec spec;

  @Option(
      names = "--log.level",
      paramLabel = "LEVEL",
      scope = ScopeType.INHERIT,
      description =
          "Log level: debug, info, warn or error; debug also shows the stack trace of an"
              + " unexpected error. Default: info for run, warn for the other commands.")
  void logLevel(String level) {
    String l = level.strip().toLowerCase(Locale.ROOT);
    if (!LOG_LEVELS.contains(l)) {
      throw new ParameterException(
          spec.commandLine(),
          "--log.level: '" + level + "' is not a level (use debug, info, warn or error)");
    }
    LogSetup.level(l);
  }

  @Option(
      names = "--log.format",
      paramLabel = "FORMAT",
      scope = ScopeType.INHERIT,
      description =
          "Log line format: plain (LEVEL Logger: message, as journald shows it), logfmt"
              + " (key=value pairs) or json (one object a line). Default: plain.")
  void logFormat(String format) {
    String f = format.strip().toLowerCase(Locale.ROOT);
    if (!LOG_FORMATS.contains(f)) {
      throw new ParameterException(
          spec.commandLine(),
          "--log.format: '" + format + "' is not a format (use plain, logfmt or json)");
    }
    LogSetup.format(f);
  }

  public static void main(String[] args) {
    LeanDefaults.apply(System.getProperties());
    System.exit(execute(args));
  }

  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  /** {@code linkwatch} alone: the usage, and what to type, on stderr; a usage error. */
  @Override
  public Integer call() {
    return missingCommand(spec.commandLine());
  }

  /** A command that needs a subcommand, run without one: its usage and a one-line hint. */
  static int missingCommand(CommandLine cli) {
    cli.usage(cli.getErr());
    cli.getErr()
        .println(
            "linkwatch: name a command, e.g. '"
                + cli.getCommandSpec().qualifiedName()
                + " "
                + cli.getSubcommands().keySet().iterator().next()
                + "'; '"
                + cli.getCommandSpec().qualifiedName()
                + " COMMAND --help' shows its options");
    cli.getErr().flush();
    return EXIT_USAGE;
  }

  /** The whole command line, with a {@code probe} subcommand for every probe. */
  public static CommandLine commandLine() {
    return commandLine(HostPaths.system());
  }

  /** The command line with NUMA nodes looked up under {@code hostPaths} (for tests). */
  static CommandLine commandLine(HostPaths hostPaths) {
    CommandLine cli = new CommandLine(new Main());
    ProbeCommand.addProbes(cli.getSubcommands().get("probe"), hostPaths);
    CheckConfigCommand checkConfig = cli.getSubcommands().get("check-config").getCommand();
    checkConfig.hostPaths = hostPaths;
    return configure(cli);
  }

  /** One line for a usage error (with a pointer to --help), exit 2; see {@link ErrorHandler}. */
  private static CommandLine configure(CommandLine cli) {
    cli.setExecutionExceptionHandler(new ErrorHandler());
    cli.setParameterExceptionHandler(Main::usageError);
    cli.setExecutionStrategy(
        parsed -> {
          List<CommandLine> chain = parsed.asCommandLineList();
          if (!chain.get(chain.size() - 1).getCommandSpec().name().equals("run")) {
            // A command's output is its table or verdict: the probes' INFO lines would repeat it.
            LogSetup.warningsOnlyUnlessSet();
          }
          return new CommandLine.RunLast().execute(parsed);
        });
    return cli;
  }

  /**
   * A usage error: {@code linkwatch: } and picocli's message, a "did you mean" for a misspelt
   * option or command, and where the command's options are listed.
   */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    java.io.PrintWriter err = cli.getErr();
    String help = "'" + cli.getCommandSpec().qualifiedName() + " --help'";
    String message = e.getMessage();
    if (message.startsWith("Missing required subcommand")) {
      return missingCommand(cli);
    }
    if (e instanceof UnmatchedArgumentException unmatched
        && cli.getCommandSpec().qualifiedName().equals("linkwatch probe")
        && !unmatched.getUnmatched().isEmpty()
        && !unmatched.getUnmatched().get(0).startsWith("-")) {
      // A word where a probe's name goes (an extra word after a probe is its own command's).
      err.println("linkwatch: " + unknownProbe(unmatched.getUnmatched().get(0)));
      err.flush();
      return EXIT_USAGE;
    }
    StringBuilder line = new StringBuilder("linkwatch: ").append(message);
    if (e instanceof UnmatchedArgumentException unmatched) {
      List<String> suggestions = unmatched.getSuggestions();
      if (!suggestions.isEmpty()) {
        line.append(" (did you mean ").append(String.join(" or ", suggestions)).append("?)");
      }
    }
    line.append("; see ").append(help);
    err.println(line);
    err.flush();
    return EXIT_USAGE;
  }

  /**
   * E.g. {@code unknown probe 'nosuch': the probes are p2p, p2p-bidirectional, ...}, with {@code
   * did you mean 'p2p'?} before the list when one name is within a typo of it ({@link
   * ClosestName}); picocli's own suggestions are any names sharing a letter.
   */
  static String unknownProbe(String name) {
    Optional<String> close = ClosestName.of(name.replace('_', '-'), probeCommands());
    return "unknown probe '"
        + name
        + "': "
        + close.map(best -> "did you mean '" + best + "'? ").orElse("")
        + "the probes are "
        + probeNames();
  }

  /** The probes' command names, in {@link ProbeKind}'s order. */
  private static List<String> probeCommands() {
    return java.util.Arrays.stream(ProbeKind.values()).map(ProbeKind::cliName).toList();
  }

  /** E.g. {@code p2p, p2p-bidirectional, host-transfer, ...}. */
  static String probeNames() {
    return String.join(", ", probeCommands());
  }

  /** Runs a command with its output and errors sent to the given writers (for tests, embedding). */
  public static int execute(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
    CommandLine cli = commandLine();
    cli.setOut(out);
    cli.setErr(err);
    return cli.execute(args);
  }
}
