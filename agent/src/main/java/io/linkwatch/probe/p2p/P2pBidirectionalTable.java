package io.linkwatch.probe.p2p;

import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code linkwatch probe p2p-bidirectional}: one row per pair and size, the total of both
 * directions as ascend-dmi's bidirectional matrix gives it.
 *
 * <pre>
 * pair   link  size    GB/s   ms
 * 0<->1  SIO   256MiB  301.5  1.781
 * </pre>
 */
public final class P2pBidirectionalTable implements ResultTable<P2pBidirectionalSettings> {
  @Override
  public void print(ProbeRun run, P2pBidirectionalSettings settings, PrintWriter out) {
    Table table = new Table("pair", "link", "size", "GB/s", "ms");
    for (TargetResult t : run.targets()) {
      for (long size : settings.sizes()) {
        P2pBidirectionalBandwidth m =
            t.measurements().stream()
                .map(P2pBidirectionalBandwidth.class::cast)
                .filter(b -> b.sizeBytes() == size)
                .findFirst()
                .orElse(null);
        table.row(
            t.target(),
            m == null ? "-" : m.link(),
            ByteSize.format(size),
            m == null ? ResultTable.missing(t) : Gbps.format(m.bytesPerSecond()),
            m == null ? "-" : String.format(Locale.ROOT, "%.3f", m.secondsPerPair() * 1e3));
      }
    }
    table.print(out);
  }
}
