package io.linkwatch.probe.collective;

import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.CollectiveBusBandwidth;
import io.linkwatch.probe.result.CollectiveLatency;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code linkwatch probe allreduce} and {@code allgather}: a table like the field notes' (seed
 * 001), one row per size, then what the figures mean, e.g.
 *
 * <pre>
 * size    p50       p99       algbw GB/s  busbw GB/s
 * 1KiB    272.9us   275.4us   0.0         0.0
 * 1GiB    10.22ms   10.27ms   105.1       105.1
 * devices 0,1: fp16 sum, busbw = algbw*2(n-1)/n
 * </pre>
 */
public final class CollectiveTable<S extends ProbeSettings> implements ResultTable<S> {
  private final Function<S, List<Long>> sizes;
  private final String legend;

  /**
   * @param legend follows {@code devices 0,1: } under each table, e.g. {@code fp16 sum, busbw =
   *     algbw*2(n-1)/n}
   */
  public CollectiveTable(Function<S, List<Long>> sizes, String legend) {
    this.sizes = sizes;
    this.legend = legend;
  }

  @Override
  public void print(ProbeRun run, S settings, PrintWriter out) {
    for (TargetResult t : run.targets()) {
      Map<Long, CollectiveLatency> latency = new HashMap<>();
      Map<Long, CollectiveBusBandwidth> bandwidth = new HashMap<>();
      for (Measurement m : t.measurements()) {
        if (m instanceof CollectiveLatency l) {
          latency.put(l.sizeBytes(), l);
        } else if (m instanceof CollectiveBusBandwidth b) {
          bandwidth.put(b.sizeBytes(), b);
        }
      }
      Table table = new Table("size", "p50", "p99", "algbw GB/s", "busbw GB/s");
      for (long size : sizes.apply(settings)) {
        CollectiveLatency l = latency.get(size);
        CollectiveBusBandwidth b = bandwidth.get(size);
        table.row(
            ByteSize.format(size),
            l == null ? ResultTable.missing(t) : time(l.p50Seconds()),
            l == null ? "-" : time(l.p99Seconds()),
            b == null ? "-" : Gbps.format(b.algBytesPerSecond()),
            b == null ? "-" : Gbps.format(b.busBytesPerSecond()));
      }
      table.print(out);
      out.println("devices " + t.target() + ": " + legend);
    }
  }

  /** Microseconds below a millisecond (latency), milliseconds above, as the field notes print. */
  static String time(double seconds) {
    return seconds < 1e-3
        ? String.format(Locale.ROOT, "%.1fus", seconds * 1e6)
        : String.format(Locale.ROOT, "%.2fms", seconds * 1e3);
  }
}
