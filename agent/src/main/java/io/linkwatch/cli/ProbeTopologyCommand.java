package io.linkwatch.cli;

import io.linkwatch.probe.TopologySettings;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch probe topology}: the topology probe as the agent runs it, one line per target
 * and finding ({@code linkwatch topo} prints the same as a matrix).
 *
 * <pre>
 * links  0->1 SIO
 * links  1->0 SIO
 * dev0   dev0 Ascend910_9382 64GiB phy 2
 * </pre>
 */
@Command(
    name = "topology",
    mixinStandardHelpOptions = true,
    description = "Link type of every device pair and the device inventory.")
final class ProbeTopologyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProbeOptions options;

  @Override
  public Integer call() {
    try (DeviceRuntime runtime = Runtimes.open(options.backend)) {
      return OneShot.run(
          runtime, options, spec, TopologySettings.DEFAULTS.newProbe(), this::printTable);
    }
  }

  private void printTable(ProbeRun run) {
    Table table = new Table("target", "found");
    for (TargetResult t : run.targets()) {
      if (t.measurements().isEmpty()) {
        table.row(t.target(), "failed");
      }
      t.measurements().forEach(m -> table.row(t.target(), m.summary()));
    }
    table.print(spec.commandLine().getOut());
  }
}
