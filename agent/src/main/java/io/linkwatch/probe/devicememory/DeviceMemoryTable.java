package io.linkwatch.probe.devicememory;

import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * {@code linkwatch probe device-memory}: one row per device.
 *
 * <pre>
 * device  size  GB/s   ms
 * dev0    1GiB  620.4  1.731
 * </pre>
 */
public final class DeviceMemoryTable implements ResultTable<DeviceMemorySettings> {
  @Override
  public void print(ProbeRun run, DeviceMemorySettings settings, PrintWriter out) {
    Table table = new Table("device", "size", "GB/s", "ms");
    for (TargetResult t : run.targets()) {
      List<DeviceMemoryBandwidth> m =
          t.measurements().stream().map(DeviceMemoryBandwidth.class::cast).toList();
      if (m.isEmpty()) {
        table.row(t.target(), ByteSize.format(settings.size()), ResultTable.missing(t), "-");
      }
      for (DeviceMemoryBandwidth b : m) {
        table.row(
            t.target(),
            ByteSize.format(b.sizeBytes()),
            Gbps.format(b.bytesPerSecond()),
            String.format(Locale.ROOT, "%.3f", b.sizeBytes() / b.bytesPerSecond() * 1e3));
      }
    }
    table.print(out);
  }
}
