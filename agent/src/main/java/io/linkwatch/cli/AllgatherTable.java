package io.linkwatch.cli;

import io.linkwatch.probe.AllgatherSettings;
import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.AllgatherBusBandwidth;
import io.linkwatch.probe.result.AllgatherLatency;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code linkwatch probe allgather}: one row per gathered size, in the allreduce table's layout.
 *
 * <pre>
 * size    p50      p99      algbw GB/s  busbw GB/s
 * 1KiB    270.4us  281.0us  0.0         0.0
 * 256MiB  2.07ms   2.09ms   129.8       64.9
 * devices 0,1: fp16, size = gathered total, busbw = algbw*(n-1)/n
 * </pre>
 */
public final class AllgatherTable implements ResultTable<AllgatherSettings> {
  @Override
  public void print(ProbeRun run, AllgatherSettings settings, PrintWriter out) {
    for (TargetResult t : run.targets()) {
      Map<Long, AllgatherLatency> latency = new HashMap<>();
      Map<Long, AllgatherBusBandwidth> bandwidth = new HashMap<>();
      for (Measurement m : t.measurements()) {
        if (m instanceof AllgatherLatency l) {
          latency.put(l.sizeBytes(), l);
        } else if (m instanceof AllgatherBusBandwidth b) {
          bandwidth.put(b.sizeBytes(), b);
        }
      }
      Table table = new Table("size", "p50", "p99", "algbw GB/s", "busbw GB/s");
      for (long size : settings.sizes()) {
        AllgatherLatency l = latency.get(size);
        AllgatherBusBandwidth b = bandwidth.get(size);
        table.row(
            ByteSize.format(size),
            l == null ? OneShot.missing(t) : AllreduceTable.time(l.p50Seconds()),
            l == null ? "-" : AllreduceTable.time(l.p99Seconds()),
            b == null ? "-" : String.format(Locale.ROOT, "%.1f", b.algBytesPerSecond() / 1e9),
            b == null ? "-" : String.format(Locale.ROOT, "%.1f", b.busBytesPerSecond() / 1e9));
      }
      table.print(out);
      out.println("devices " + t.target() + ": fp16, size = gathered total, busbw = algbw*(n-1)/n");
    }
  }
}
