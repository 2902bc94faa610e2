package io.linkwatch.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch man}: the manual page linkwatch(1) in troff, made from the same command tree as
 * {@code --help} (every command and option, so it cannot drift from the code); the packages install
 * it as {@code /usr/share/man/man1/linkwatch.1.gz}. Read it with {@code linkwatch man | man -l -}.
 */
@Command(
    name = "man",
    mixinStandardHelpOptions = true,
    description = {
      "Print the linkwatch(1) manual page (troff).",
      "Read it now with: linkwatch man | man -l -"
    })
final class ManPageCommand implements Callable<Integer> {
  /** What the packages install besides the program, as FILES lists it. */
  private static final String[][] FILES = {
    {"/etc/linkwatch/linkwatch.yaml", "the agent's configuration (linkwatch check-config)"},
    {"/usr/share/linkwatch/dashboards/", "Grafana dashboards: one node, the fleet"},
    {"/usr/share/linkwatch/rules/linkwatch.rules.yml", "Prometheus recording and alert rules"},
    {
      "/usr/share/linkwatch/alertmanager/",
      "an Alertmanager configuration and template to start from"
    },
    {
      "/usr/share/linkwatch/gpu-check.sh",
      "one-shot probes on an NVIDIA host, next to published figures"
    },
    {"/usr/share/linkwatch/slurm/", "Slurm health check, prolog and epilog"},
    {"/usr/share/doc/linkwatch/", "README.md and docs/"}
  };

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.print(page(spec.root()));
    out.flush();
    return 0;
  }

  /** The page of {@code root} and all its subcommands, hidden ones left out. */
  static String page(CommandSpec root) {
    StringBuilder m = new StringBuilder();
    m.append(".TH LINKWATCH 1 \"\" \"")
        .append(escape(root.version().length > 0 ? root.version()[0] : "linkwatch"))
        .append("\" \"User Commands\"\n");
    m.append(".SH NAME\nlinkwatch \\- ")
        .append(escape(String.join(" ", root.usageMessage().description())))
        .append('\n');
    m.append(".SH SYNOPSIS\n.B linkwatch\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n");
    m.append(".SH DESCRIPTION\n");
    for (String line : root.usageMessage().footer()) {
      if (!line.isBlank()) {
        m.append(escape(line)).append("\n.br\n");
      }
    }
    m.append(".SH OPTIONS\n");
    options(m, root);
    m.append(".SH COMMANDS\n");
    commands(m, root.commandLine());
    m.append(".SH EXIT STATUS\n")
        .append("0 success; 1 a probe or a target failed; 2 bad usage, configuration or a missing")
        .append(" device library; 3 a device was busy with other work (one-shot probes).\n");
    m.append(".SH FILES\n");
    for (String[] file : FILES) {
      m.append(".TP\n").append(escape(file[0])).append('\n').append(escape(file[1])).append('\n');
    }
    return m.toString();
  }

  private static void commands(StringBuilder m, CommandLine parent) {
    for (Map.Entry<String, CommandLine> e : parent.getSubcommands().entrySet()) {
      CommandSpec c = e.getValue().getCommandSpec();
      if (c.usageMessage().hidden() || !c.name().equals(e.getKey())) {
        continue; // aliases appear under their command
      }
      m.append(".SS ").append(escape(c.qualifiedName())).append('\n');
      if (c.aliases().length > 0) {
        m.append("Also: ").append(escape(String.join(", ", c.aliases()))).append("\n.br\n");
      }
      m.append(escape(String.join(" ", c.usageMessage().description()))).append('\n');
      options(m, c);
      commands(m, e.getValue());
    }
  }

  private static void options(StringBuilder m, CommandSpec c) {
    for (OptionSpec o : c.options()) {
      if (o.hidden() || o.inherited()) {
        continue;
      }
      m.append(".TP\n\\fB").append(escape(String.join(", ", o.names()))).append("\\fR");
      if (o.arity().max() > 0) {
        m.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
      }
      m.append('\n');
      String text = String.join(" ", o.description());
      String defaultValue = o.defaultValueString();
      text = text.replace("${DEFAULT-VALUE}", defaultValue == null ? "" : defaultValue);
      m.append(escape(text)).append('\n');
    }
  }

  /** Text safe in troff: backslashes doubled, a leading dot or quote guarded. */
  static String escape(String text) {
    String t = text.replace("\\", "\\e").replace("-", "\\-");
    return t.startsWith(".") || t.startsWith("'") ? "\\&" + t : t;
  }
}
