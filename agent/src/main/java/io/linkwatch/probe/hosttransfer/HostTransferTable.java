package io.linkwatch.probe.hosttransfer;

import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code linkwatch probe host-transfer}: one row per device, CPU node, memory kind and size, as in
 * seed 004, then the spread of pageable H2D over the CPU nodes:
 *
 * <pre>
 * device  cpu node  mem node  memory                        size   H2D GB/s  D2H GB/s  pages
 * 0       0         0         pinned (aclrtHostRegisterV2)  64MiB  57.4      40.6      N0 1.00
 * 0       0         0         pageable                      64MiB  24.7      25.1      N0 1.00
 * 0       1         1         pageable                      64MiB  6.6       15.2      N1 1.00
 * pageable H2D, device 0, 64MiB: best node 0 (24.7 GB/s), worst node 1 (6.6 GB/s): 73 % lower
 * </pre>
 */
public final class HostTransferTable implements ResultTable<HostTransferSettings> {
  @Override
  public void print(ProbeRun run, HostTransferSettings settings, PrintWriter out) {
    print(run, out);
  }

  /** One table row: the two directions of one buffer. */
  private record Row(int device, int cpuNode, String memory, long size) {}

  static void print(ProbeRun run, PrintWriter out) {
    List<Measurement> all = run.targets().stream().flatMap(t -> t.measurements().stream()).toList();
    Map<Row, List<HostTransferBandwidth>> rows = new LinkedHashMap<>();
    Map<String, List<HostBufferPages>> pages = new LinkedHashMap<>();
    for (Measurement m : all) {
      if (m instanceof HostTransferBandwidth h) {
        rows.computeIfAbsent(
                new Row(h.device(), h.cpuNode(), h.memory(), h.sizeBytes()), k -> new ArrayList<>())
            .add(h);
      } else if (m instanceof HostBufferPages p) {
        pages
            .computeIfAbsent(
                p.device() + "/" + p.cpuNode() + "/" + p.memory(), k -> new ArrayList<>())
            .add(p);
      }
    }
    Table table =
        new Table(
            "device", "cpu node", "mem node", "memory", "size", "H2D GB/s", "D2H GB/s", "pages");
    for (Map.Entry<Row, List<HostTransferBandwidth>> e : rows.entrySet()) {
      Row r = e.getKey();
      HostTransferBandwidth any = e.getValue().get(0);
      String memory =
          r.memory().equals(HostTransferSettings.PINNED) && !any.allocation().isEmpty()
              ? r.memory() + " (" + any.allocation() + ")"
              : r.memory();
      String pageCell =
          pages.getOrDefault(r.device() + "/" + r.cpuNode() + "/" + r.memory(), List.of()).stream()
              .sorted(Comparator.comparingDouble(HostBufferPages::ratio).reversed())
              .map(p -> String.format(Locale.ROOT, "N%d %.2f", p.memNode(), p.ratio()))
              .collect(Collectors.joining(" "));
      table.row(
          String.valueOf(r.device()),
          String.valueOf(r.cpuNode()),
          any.memNode(),
          memory,
          ByteSize.format(r.size()),
          gbps(e.getValue(), HostTransferBandwidth.H2D),
          gbps(e.getValue(), HostTransferBandwidth.D2H),
          pageCell.isEmpty() ? "-" : pageCell);
    }
    table.print(out);
    for (String line : spreadLines(all)) {
      out.println(line);
    }
  }

  private static String gbps(List<HostTransferBandwidth> both, String direction) {
    return both.stream()
        .filter(h -> h.direction().equals(direction))
        .findFirst()
        .map(h -> Gbps.format(h.bytesPerSecond()))
        .orElse("-");
  }

  /**
   * For each device and size, the best and the worst CPU node for pageable H2D and how much lower
   * the worst is, e.g. {@code pageable H2D, device 0, 64MiB: best node 0 (24.9 GB/s), worst node 1
   * (6.6 GB/s): 73 % lower}.
   */
  public static List<String> spreadLines(List<Measurement> measurements) {
    Map<String, List<HostTransferBandwidth>> groups = new LinkedHashMap<>();
    for (Measurement m : measurements) {
      if (m instanceof HostTransferBandwidth h
          && h.memory().equals(HostTransferSettings.PAGEABLE)
          && h.direction().equals(HostTransferBandwidth.H2D)) {
        groups
            .computeIfAbsent(
                "device " + h.device() + ", " + ByteSize.format(h.sizeBytes()),
                k -> new ArrayList<>())
            .add(h);
      }
    }
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, List<HostTransferBandwidth>> e : groups.entrySet()) {
      List<HostTransferBandwidth> list = e.getValue();
      HostTransferBandwidth best =
          list.stream()
              .max(Comparator.comparingDouble(HostTransferBandwidth::bytesPerSecond))
              .get();
      HostTransferBandwidth worst =
          list.stream()
              .min(Comparator.comparingDouble(HostTransferBandwidth::bytesPerSecond))
              .get();
      String prefix = "pageable H2D, " + e.getKey() + ": ";
      if (list.size() == 1) {
        lines.add(
            prefix
                + String.format(
                    Locale.ROOT,
                    "only node %d measured (%s GB/s), nothing to compare",
                    best.cpuNode(),
                    Gbps.format(best.bytesPerSecond())));
        continue;
      }
      double lower = 100 * (1 - worst.bytesPerSecond() / best.bytesPerSecond());
      lines.add(
          prefix
              + String.format(
                  Locale.ROOT,
                  "best node %d (%s GB/s), worst node %d (%s GB/s): %.0f %% lower",
                  best.cpuNode(),
                  Gbps.format(best.bytesPerSecond()),
                  worst.cpuNode(),
                  Gbps.format(worst.bytesPerSecond()),
                  lower));
    }
    return lines;
  }
}
