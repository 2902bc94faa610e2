package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Walks the whole command tree and holds every command and option to the conventions written in the
 * docs/cli.md: one naming scheme, one duration and size syntax, stated defaults, one-line command
 * summaries.
 */
class CliConventionsTest {
  /** Lower case words joined by dashes; dots only between a family and its member (--log.level). */
  private static final Pattern NAME =
      Pattern.compile("--[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)*|-[hV]");

  /** What a value is, in capitals: FILE, SIZE, DURATION, HOST:PORT, N, ... */
  private static final Pattern LABEL = Pattern.compile("[A-Z][A-Z0-9_:]*");

  private static List<CommandSpec> commands() {
    List<CommandSpec> all = new ArrayList<>();
    walk(Main.commandLine(), all);
    return all;
  }

  private static void walk(CommandLine cli, List<CommandSpec> all) {
    all.add(cli.getCommandSpec());
    for (Map.Entry<String, CommandLine> e : cli.getSubcommands().entrySet()) {
      if (e.getKey().equals(e.getValue().getCommandSpec().name())) {
        walk(e.getValue(), all);
      }
    }
  }

  private static List<String> violations(
      java.util.function.BiFunction<CommandSpec, OptionSpec, String> rule) {
    List<String> found = new ArrayList<>();
    for (CommandSpec c : commands()) {
      for (OptionSpec o : c.options()) {
        String v = rule.apply(c, o);
        if (v != null) {
          found.add(c.qualifiedName() + " " + o.longestName() + ": " + v);
        }
      }
    }
    return found;
  }

  @Test
  void optionNamesAreLowerCaseDashedWords() {
    assertThat(
            violations(
                (c, o) -> {
                  for (String n : o.names()) {
                    if (!NAME.matcher(n).matches()) {
                      return "'" + n + "' is not --lower-case-words";
                    }
                  }
                  return null;
                }))
        .isEmpty();
  }

  @Test
  void everyValueHasALabelSayingWhatItIs() {
    assertThat(
            violations(
                (c, o) ->
                    o.arity().max() > 0 && !LABEL.matcher(o.paramLabel()).matches()
                        ? "label '" + o.paramLabel() + "'"
                        : null))
        .isEmpty();
  }

  /** A duration is written 500ms, 30s, 5m: never a bare number of seconds. */
  @Test
  void durationsAreReadByTheDurationSyntax() {
    assertThat(
            violations(
                (c, o) -> {
                  if (o.paramLabel().equals("SECONDS") || o.paramLabel().equals("MILLISECONDS")) {
                    return "a number of " + o.paramLabel().toLowerCase() + ": use DURATION";
                  }
                  boolean timeLike =
                      o.longestName().endsWith("timeout") || o.paramLabel().equals("DURATION");
                  if (timeLike
                      && !(o.paramLabel().equals("DURATION")
                          && o.type() == java.time.Duration.class)) {
                    return "a duration must be a DURATION read as 30s/5m";
                  }
                  return null;
                }))
        .isEmpty();
  }

  /** A size is written 64MiB or 1GB, read by one parser. */
  @Test
  void sizesAreReadByTheSizeSyntax() {
    assertThat(
            violations(
                (c, o) -> {
                  boolean sizeLike =
                      o.longestName().endsWith("-size")
                          || o.longestName().endsWith("-sizes")
                          || o.longestName().equals("--size")
                          || o.longestName().equals("--sizes");
                  if (sizeLike && !o.paramLabel().equals("SIZE")) {
                    return "a size must be labelled SIZE";
                  }
                  if (o.paramLabel().equals("SIZE")
                      && o.converters().length > 0
                      && !(o.converters()[0] instanceof SizeConverter)) {
                    return "a SIZE must be read by SizeConverter";
                  }
                  return null;
                }))
        .isEmpty();
  }

  /** Every option says what it does, and what it is when not given. */
  @Test
  void everyOptionIsDescribedWithItsDefault() {
    assertThat(
            violations(
                (c, o) -> {
                  String text = String.join(" ", o.description());
                  if (text.isBlank()) {
                    return "no description";
                  }
                  if (text.matches(".*Default: [^.]*'s\\..*") || text.contains("(default: ")) {
                    return "default not stated as 'Default: VALUE.': " + text;
                  }
                  if (o.defaultValue() != null && !text.contains("Default: ")) {
                    return "has default '" + o.defaultValue() + "' but does not say it";
                  }
                  return null;
                }))
        .isEmpty();
  }

  /** topo's copy options state p2p's defaults as numbers: they must be p2p's. */
  @Test
  void topoStatesP2psDefaults() {
    CommandSpec topo = Main.commandLine().getSubcommands().get("topo").getCommandSpec();
    io.linkwatch.probe.p2p.P2pSettings d = io.linkwatch.probe.p2p.P2pSettings.DEFAULTS;
    assertThat(String.join(" ", topo.findOption("--warmup").description()))
        .contains("Default: " + d.warmup() + ",");
    assertThat(String.join(" ", topo.findOption("--iterations").description()))
        .contains("Default: " + d.iterations() + ",");
    assertThat(String.join(" ", topo.findOption("--size").description()))
        .contains("Default: " + io.linkwatch.util.ByteSize.format(d.sizes().get(0)) + ".");
  }

  /** The command list of --help shows one short line per command. */
  @Test
  void everyCommandHasAOneLineSummary() {
    List<String> found = new ArrayList<>();
    for (CommandSpec c : commands()) {
      String[] d = c.usageMessage().description();
      if (d.length == 0 || d[0].isBlank()) {
        found.add(c.qualifiedName() + ": no description");
      } else if (d[0].length() > 90) {
        found.add(c.qualifiedName() + ": first line over 90 characters: " + d[0]);
      }
    }
    assertThat(found).isEmpty();
  }

  /** A probe's help names the library of both vendors, not only Ascend's. */
  @Test
  void probeHelpIsNotVendorSpecific() {
    List<String> found = new ArrayList<>();
    for (CommandSpec c : commands()) {
      String text = String.join(" ", c.usageMessage().description());
      if (c.qualifiedName().startsWith("linkwatch probe ")
          && text.contains("HCCL")
          && !text.contains("NCCL")) {
        found.add(c.qualifiedName() + ": " + text);
      }
    }
    assertThat(found).isEmpty();
  }
}
