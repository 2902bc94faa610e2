package io.linkwatch.probe.topology;

import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.Table;
import java.io.PrintWriter;

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
public final class TopologyTable implements ResultTable<TopologySettings> {
  @Override
  public void print(ProbeRun run, TopologySettings settings, PrintWriter out) {
    Table table = new Table("target", "found");
    for (TargetResult t : run.targets()) {
      if (t.measurements().isEmpty()) {
        table.row(t.target(), "failed");
      }
      t.measurements().forEach(m -> table.row(t.target(), m.summary()));
    }
    table.print(out);
  }
}
