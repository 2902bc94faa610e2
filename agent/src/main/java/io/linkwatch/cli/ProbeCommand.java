package io.linkwatch.cli;

import picocli.CommandLine.Command;

/** {@code linkwatch probe NAME}: runs one probe once, in this process, and prints a table. */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    description = "Run one probe once and print its results.",
    subcommands = {
      ProbeP2pCommand.class,
      ProbeAllreduceCommand.class,
      ProbeHostTransferCommand.class,
      ProbeDeviceMemoryCommand.class,
      ProbeTopologyCommand.class
    })
final class ProbeCommand {}
