package io.linkwatch.cli;

import io.linkwatch.probe.AllreduceSettings;
import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code linkwatch probe allreduce}: a table like the field notes' (seed 001), one row per message
 * size; with two devices busbw equals algbw.
 *
 * <pre>
 * size    p50       p99       algbw GB/s  busbw GB/s
 * 1KiB    272.9us   275.4us   0.0         0.0
 * 1GiB    10.22ms   10.27ms   105.1       105.1
 * devices 0,1: fp16 sum, busbw = algbw*2(n-1)/n
 * </pre>
 */
public final class AllreduceTable implements ResultTable<AllreduceSettings> {
  @Override
  public void print(ProbeRun run, AllreduceSettings settings, PrintWriter out) {
    for (TargetResult t : run.targets()) {
      Map<Long, AllreduceLatency> latency = new HashMap<>();
      Map<Long, AllreduceBusBandwidth> bandwidth = new HashMap<>();
      for (Measurement m : t.measurements()) {
        if (m instanceof AllreduceLatency l) {
          latency.put(l.sizeBytes(), l);
        } else if (m instanceof AllreduceBusBandwidth b) {
          bandwidth.put(b.sizeBytes(), b);
        }
      }
      Table table = new Table("size", "p50", "p99", "algbw GB/s", "busbw GB/s");
      for (long size : settings.sizes()) {
        AllreduceLatency l = latency.get(size);
        AllreduceBusBandwidth b = bandwidth.get(size);
        table.row(
            ByteSize.format(size),
            l == null ? OneShot.missing(t) : time(l.p50Seconds()),
            l == null ? "-" : time(l.p99Seconds()),
            b == null ? "-" : String.format(Locale.ROOT, "%.1f", b.algBytesPerSecond() / 1e9),
            b == null ? "-" : String.format(Locale.ROOT, "%.1f", b.busBytesPerSecond() / 1e9));
      }
      table.print(out);
      out.println("devices " + t.target() + ": fp16 sum, busbw = algbw*2(n-1)/n");
    }
  }

  /** Microseconds below a millisecond (latency), milliseconds above, as the field notes print. */
  static String time(double seconds) {
    return seconds < 1e-3
        ? String.format(Locale.ROOT, "%.1fus", seconds * 1e6)
        : String.format(Locale.ROOT, "%.2fms", seconds * 1e3);
  }
}
