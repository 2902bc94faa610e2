package io.linkwatch.cli;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigException;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.FindingActionTable;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.host.HostPaths;
import io.linkwatch.host.ProbeLock;
import io.linkwatch.probe.Preflight;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Table;
import io.linkwatch.verdict.ExpectedFigure;
import io.linkwatch.verdict.FindingAction;
import io.linkwatch.verdict.InactiveLink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch check-config [--config] FILE}: validates without starting; exit 2 on any error.
 * Without a file it checks the default one, or, where there is none, says what it expects.
 */
@Command(
    name = "check-config",
    mixinStandardHelpOptions = true,
    description = "Validate a configuration file without starting anything.")
final class CheckConfigCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "FILE",
      arity = "0..1",
      description =
          "The YAML file to check (or --config FILE). Default: /etc/linkwatch/linkwatch.yaml,"
              + " when it exists.")
  Path file;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The YAML file to check, as run --config names it.")
  Path config;

  @Option(
      names = "--expected",
      description =
          "Also print the effective tables the verdict uses: expected figures and links inactive by"
              + " design, the file's rows first, then the shipped ones (the first row that matches"
              + " a link judges it), and the action and escalation of each finding code.")
  boolean expected;

  /** Where the host's memory is read ({@code MemAvailable}); a fixture tree in tests. */
  HostPaths hostPaths = HostPaths.system();

  @Override
  public Integer call() {
    Path file = config != null ? config : this.file;
    if (file == null) {
      if (!Files.exists(ConfigLoader.DEFAULT_PATH)) {
        throw new UsageException(
            "check-config: name the config file to check, e.g. 'linkwatch check-config"
                + " /etc/linkwatch/linkwatch.yaml' (none given, and the default, "
                + ConfigLoader.DEFAULT_PATH
                + ", does not exist)");
      }
      file = ConfigLoader.DEFAULT_PATH;
    }
    AgentConfig cfg = ConfigLoader.load(file);
    checkHostMemory(file, cfg);
    long enabled = cfg.probes().values().stream().filter(p -> p.enabled()).count();
    String passive =
        cfg.passive().enabled()
            ? "passive every "
                + io.linkwatch.util.Durations.format(cfg.passive().interval())
                + " from "
                + String.join(
                    "+",
                    cfg.passive().sources().stream()
                        .sorted()
                        .map(io.linkwatch.passive.PassiveSource::id)
                        .toList())
            : "passive off";
    spec.commandLine()
        .getOut()
        .printf(
            "%s: ok (backend %s, %d probes enabled, %s, listen %s, %s, %d expected figures of"
                + " the operator's)%n",
            file,
            cfg.backend().id(),
            enabled,
            passive,
            cfg.listen(),
            cfg.probeLock() == null ? "no probe lock" : "probe lock " + cfg.probeLock(),
            cfg.expected().size());
    // Not an error (an agent measures without the lock, and the unit makes the directory when it
    // starts), but a file checked before the agent runs by hand should say what will happen.
    if (cfg.probeLock() != null && !Files.isDirectory(cfg.probeLock().getParent())) {
      spec.commandLine()
          .getOut()
          .printf(
              "%s: note: coordination.lock_file %s: %s does not exist, so checks and the agent's"
                  + " probes will not keep off each other's devices; %s%n",
              file,
              cfg.probeLock(),
              cfg.probeLock().getParent(),
              ProbeLock.MISSING_DIRECTORY_REMEDY);
    }
    if (expected) {
      printTables(cfg, spec.commandLine().getOut());
    }
    return 0;
  }

  /** The expected figures and inactive links in force, in the order they are matched. */
  private static void printTables(AgentConfig cfg, java.io.PrintWriter out) {
    int own = cfg.expected().size();
    Table figures =
        new Table("#", "product", "link", "probe", "sizes", "fail", "warn", "from", "source");
    List<ExpectedFigure> all = cfg.expectedFigures();
    for (int i = 0; i < all.size(); i++) {
      ExpectedFigure f = all.get(i);
      boolean bandwidth = f.quantity() == ExpectedFigure.Quantity.BANDWIDTH;
      figures.row(
          String.valueOf(i + 1),
          f.product(),
          f.linkType(),
          f.probe(),
          sizes(f),
          (bandwidth ? "< " : "> ") + f.quantity().format(f.fail()),
          (bandwidth ? "< " : "> ") + f.quantity().format(f.warn()),
          i < own ? "config" : "shipped",
          f.source());
    }
    out.println();
    out.println("expected figures (" + all.size() + "):");
    figures.print(out);
    List<InactiveLink> inactive = cfg.inactiveLinkTable();
    out.println();
    if (inactive.isEmpty()) {
      out.println("links inactive by design: none (every link read is expected up)");
    } else {
      int ownInactive = cfg.inactiveLinks().size();
      Table links = new Table("#", "product", "link", "links", "from", "source");
      for (int i = 0; i < inactive.size(); i++) {
        InactiveLink l = inactive.get(i);
        links.row(
            String.valueOf(i + 1),
            l.product(),
            l.linkType(),
            l.linkList(),
            i < ownInactive ? "config" : "shipped",
            l.source());
      }
      out.println("links inactive by design (" + inactive.size() + "):");
      links.print(out);
    }
    printActions(cfg, out);
    out.flush();
  }

  /** One row per code, the operator's where it has one: what each finding tells an operator. */
  private static void printActions(AgentConfig cfg, java.io.PrintWriter out) {
    Table actions = new Table("code", "action", "escalates", "then", "from");
    java.util.Set<String> own = new java.util.HashSet<>();
    cfg.findingActions().forEach(a -> own.add(a.code()));
    for (String code : FindingActionTable.CODES) {
      FindingAction a = cfg.findingActionTable().of(code).orElseThrow();
      actions.row(
          code,
          a.action(),
          a.escalate()
              .map(
                  e ->
                      e.after()
                          + " times in "
                          + io.linkwatch.util.Durations.format(e.within())
                          + ": "
                          + e.state().name())
              .orElse("never"),
          a.escalate().map(FindingAction.Escalation::action).orElse(""),
          own.contains(code) ? "config" : "shipped");
    }
    out.println();
    out.println("finding actions (" + FindingActionTable.CODES.size() + " codes):");
    actions.print(out);
  }

  private static String sizes(ExpectedFigure f) {
    if (f.minSizeBytes() == f.maxSizeBytes()) {
      return ByteSize.format(f.minSizeBytes());
    }
    if (f.maxSizeBytes() == Long.MAX_VALUE) {
      return f.minSizeBytes() == 0 ? "all" : ">= " + ByteSize.format(f.minSizeBytes());
    }
    return ByteSize.format(f.minSizeBytes()) + "-" + ByteSize.format(f.maxSizeBytes());
  }

  /**
   * The enabled probes' sizes held to the memory this host has ({@link Preflight#hostOnly}): a size
   * it cannot back gets the agent OOM-killed, so it is a config error, e.g. {@code FILE:
   * probes.p2p.sizes: 40GiB (2 buffers of it in host memory on the sim) is more than ...}.
   */
  private void checkHostMemory(Path file, AgentConfig cfg) {
    List<String> problems = new ArrayList<>();
    for (ProbeConfig probe : cfg.probes().values()) {
      if (!probe.enabled()) {
        continue;
      }
      probe
          .settings()
          .preflight(
              Preflight.hostOnly(
                  cfg.backend(),
                  hostPaths,
                  (key, reason) ->
                      problems.add(
                          file + ": probes." + probe.kind().id() + "." + key + ": " + reason)));
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(String.join("\n", problems));
    }
  }
}
