package io.linkwatch.cli;

import io.linkwatch.probe.P2pSettings;
import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.P2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code linkwatch probe p2p}: one column pair per direction, then the link of each pair.
 *
 * <pre>
 * size     0->1 GB/s  0->1 ms  1->0 GB/s  1->0 ms
 * 1MiB     4.9        0.214    4.9        0.214
 * link 0->1: SIO
 * </pre>
 */
public final class P2pTable implements ResultTable<P2pSettings> {
  @Override
  public void print(ProbeRun run, P2pSettings settings, PrintWriter out) {
    Map<Long, Map<String, P2pBandwidth>> bySize = new TreeMap<>();
    List<String> targets = new ArrayList<>();
    Map<String, String> missing = new TreeMap<>();
    for (TargetResult t : run.targets()) {
      targets.add(t.target());
      missing.put(t.target(), OneShot.missing(t));
      t.measurements().stream()
          .map(P2pBandwidth.class::cast)
          .forEach(
              m -> bySize.computeIfAbsent(m.sizeBytes(), k -> new TreeMap<>()).put(t.target(), m));
    }
    List<String> header = new ArrayList<>(List.of("size"));
    for (String t : targets) {
      header.add(t + " GB/s");
      header.add(t + " ms");
    }
    Table table = new Table(header.toArray(String[]::new));
    for (long size : settings.sizes()) {
      List<String> row = new ArrayList<>(List.of(ByteSize.format(size)));
      Map<String, P2pBandwidth> cells = bySize.getOrDefault(size, Map.of());
      for (String t : targets) {
        P2pBandwidth m = cells.get(t);
        row.add(
            m == null
                ? missing.get(t)
                : String.format(Locale.ROOT, "%.1f", m.bytesPerSecond() / 1e9));
        row.add(m == null ? "-" : String.format(Locale.ROOT, "%.3f", m.secondsPerCopy() * 1e3));
      }
      table.row(row.toArray(String[]::new));
    }
    table.print(out);
    run.targets().stream()
        .flatMap(t -> t.measurements().stream())
        .map(P2pBandwidth.class::cast)
        .map(m -> m.src() + "->" + m.dst() + ": " + m.link())
        .distinct()
        .forEach(line -> out.println("link " + line));
  }
}
