package io.linkwatch.cli;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch check-config [--config] FILE}: validates without starting; exit 2 on any error.
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
      description = "The YAML file to check (or --config FILE). Default: ${DEFAULT-VALUE}.",
      defaultValue = "/etc/linkwatch/linkwatch.yaml")
  Path file;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The YAML file to check, as run --config names it.")
  Path config;

  @Override
  public Integer call() {
    Path file = config != null ? config : this.file;
    AgentConfig cfg = ConfigLoader.load(file);
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
    return 0;
  }
}
