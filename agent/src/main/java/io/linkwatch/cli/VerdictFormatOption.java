package io.linkwatch.cli;

import picocli.CommandLine.Option;

/** The {@code --format} of the commands that print a verdict ({@code status}, {@code check}). */
final class VerdictFormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      converter = VerdictFormat.Converter.class,
      description = "text (every finding), nagios or npd. Default: ${DEFAULT-VALUE}.")
  VerdictFormat format;
}
