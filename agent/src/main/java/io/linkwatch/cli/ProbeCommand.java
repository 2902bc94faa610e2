package io.linkwatch.cli;

import io.linkwatch.host.HostPaths;
import io.linkwatch.registry.ProbeKind;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code linkwatch probe NAME}: runs one probe once, in this process, and prints a table. Its
 * subcommands are every probe of {@link ProbeKind} ({@link ProbeSubcommand}).
 */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    description = "Run one probe once and print its results.")
final class ProbeCommand {
  /** Adds a subcommand per probe to {@code probe}. */
  static void addProbes(CommandLine probe, HostPaths hostPaths) {
    for (ProbeKind kind : ProbeKind.values()) {
      probe.addSubcommand(kind.cliName(), ProbeSubcommand.create(kind, hostPaths));
    }
  }
}
