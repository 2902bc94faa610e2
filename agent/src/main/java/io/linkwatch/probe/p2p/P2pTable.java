package io.linkwatch.probe.p2p;

import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * {@code linkwatch probe p2p}. Between two devices: one column pair per direction, then the link of
 * each pair.
 *
 * <pre>
 * size     0->1 GB/s  0->1 ms  1->0 GB/s  1->0 ms
 * 1MiB     4.9        0.214    4.9        0.214
 * link 0->1: SIO
 * </pre>
 *
 * <p>Among more devices, the layout of ascend-dmi's p2p matrix instead, one per size: sources down,
 * destinations across, {@code ***} on the diagonal, then the link matrix the same way.
 *
 * <pre>
 * Unidirectional p2p bandwidth matrix (GB/s), 256MiB
 * S\D  0      1      2
 * 0    ***    366.2  367.0
 * ...
 * Link matrix
 * S\D  0       1       2
 * 0    ***     NVLINK  NVLINK
 * </pre>
 */
public final class P2pTable implements ResultTable<P2pSettings> {
  @Override
  public void print(ProbeRun run, P2pSettings settings, PrintWriter out) {
    TreeSet<Integer> devices = new TreeSet<>();
    for (TargetResult t : run.targets()) {
      try {
        DevicePair pair = DevicePair.parse(t.target());
        devices.add(pair.src());
        devices.add(pair.dst());
      } catch (IllegalArgumentException e) {
        // a run that failed before its pairs were known: the column layout shows its target
      }
    }
    if (devices.size() > 2) {
      printMatrices(run, settings, List.copyOf(devices), out);
    } else {
      printColumns(run, settings, out);
    }
  }

  private static void printMatrices(
      ProbeRun run, P2pSettings settings, List<Integer> devices, PrintWriter out) {
    Map<String, TargetResult> byTarget = new TreeMap<>();
    Map<String, String> links = new TreeMap<>();
    for (TargetResult t : run.targets()) {
      byTarget.put(t.target(), t);
      t.measurements().stream()
          .map(P2pBandwidth.class::cast)
          .forEach(m -> links.put(t.target(), m.link()));
    }
    for (long size : settings.sizes()) {
      out.println("Unidirectional p2p bandwidth matrix (GB/s), " + ByteSize.format(size));
      matrix(
              devices,
              target -> {
                TargetResult t = byTarget.get(target);
                if (t == null) {
                  return "-";
                }
                return t.measurements().stream()
                    .map(P2pBandwidth.class::cast)
                    .filter(m -> m.sizeBytes() == size)
                    .findFirst()
                    .map(m -> Gbps.format(m.bytesPerSecond()))
                    .orElse(ResultTable.missing(t));
              })
          .print(out);
    }
    if (!links.isEmpty()) {
      out.println("Link matrix");
      matrix(devices, target -> links.getOrDefault(target, "-")).print(out);
    }
  }

  private static Table matrix(List<Integer> devices, Function<String, String> cell) {
    List<String> header = new ArrayList<>(List.of("S\\D"));
    devices.forEach(d -> header.add(String.valueOf(d)));
    Table table = new Table(header.toArray(String[]::new));
    for (int src : devices) {
      List<String> row = new ArrayList<>(List.of(String.valueOf(src)));
      for (int dst : devices) {
        row.add(src == dst ? "X" : cell.apply(src + "->" + dst));
      }
      table.row(row.toArray(String[]::new));
    }
    return table;
  }

  private static void printColumns(ProbeRun run, P2pSettings settings, PrintWriter out) {
    Map<Long, Map<String, P2pBandwidth>> bySize = new TreeMap<>();
    List<String> targets = new ArrayList<>();
    Map<String, String> missing = new TreeMap<>();
    for (TargetResult t : run.targets()) {
      targets.add(t.target());
      missing.put(t.target(), ResultTable.missing(t));
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
        row.add(m == null ? missing.get(t) : Gbps.format(m.bytesPerSecond()));
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
