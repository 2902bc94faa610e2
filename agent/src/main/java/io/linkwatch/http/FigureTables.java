package io.linkwatch.http;

import static io.linkwatch.http.StatusFormat.gbps;
import static io.linkwatch.http.StatusFormat.micros;
import static io.linkwatch.http.StatusFormat.size;

import io.linkwatch.history.SeriesId;
import io.linkwatch.http.CellJudge.Judgement;
import io.linkwatch.http.StatusPageModel.Cell;
import io.linkwatch.http.StatusPageModel.CollectiveRow;
import io.linkwatch.http.StatusPageModel.Collectives;
import io.linkwatch.http.StatusPageModel.HostTransfer;
import io.linkwatch.http.StatusPageModel.HostTransferRow;
import io.linkwatch.probe.result.CollectiveBusBandwidth;
import io.linkwatch.probe.result.CollectiveLatency;
import io.linkwatch.probe.result.HostCopy;
import io.linkwatch.probe.result.HostPagePlacement;
import io.linkwatch.status.TargetEntry.Figure;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The status page's tables of host copies (per device, NUMA node and size) and collectives, judged
 * as the matrix is; they read the figures by their shape ({@link HostCopy}, {@link
 * CollectiveLatency}), whatever probe measured them.
 */
final class FigureTables {
  private static final List<String> HOST_COLUMNS =
      List.of("pinned h2d", "pinned d2h", "pageable h2d", "pageable d2h");

  private static final Comparator<List<Long>> LONG_LIST_ORDER =
      (x, y) -> {
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
          int c = Long.compare(x.get(i), y.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(x.size(), y.size());
      };

  private final CellJudge judge;
  private final StatusFacts facts;

  FigureTables(CellJudge judge, StatusFacts facts) {
    this.judge = judge;
    this.facts = facts;
  }

  /** Host transfer per device, NUMA node and size; null without a figure. */
  HostTransfer hostTransfer() {
    // (device, cpu node, size) -> "memory direction" -> figure
    Map<List<Long>, Map<String, Figure>> rows = new TreeMap<>(LONG_LIST_ORDER);
    Map<List<Long>, List<String>> pages = new TreeMap<>(LONG_LIST_ORDER);
    for (Figure f : facts.figures()) {
      if (f.measurement() instanceof HostCopy h) {
        rows.computeIfAbsent(
                List.of((long) h.device(), (long) h.cpuNode(), h.sizeBytes()), k -> new TreeMap<>())
            .put(h.memory() + " " + h.direction(), f);
      } else if (f.measurement() instanceof HostPagePlacement p) {
        pages
            .computeIfAbsent(List.of((long) p.device(), (long) p.cpuNode()), k -> new ArrayList<>())
            .add(
                String.format(
                    Locale.ROOT,
                    "%s: %.0f %% on node %s",
                    p.memory(),
                    100 * p.ratio(),
                    p.memNode()));
      }
    }
    if (rows.isEmpty()) {
      return null;
    }
    List<HostTransferRow> out = new ArrayList<>();
    for (var row : rows.entrySet()) {
      long device = row.getKey().get(0);
      long node = row.getKey().get(1);
      long size = row.getKey().get(2);
      TreeSet<String> memNodes = new TreeSet<>();
      String method = "";
      boolean verified = !row.getValue().isEmpty();
      List<Cell> cells = new ArrayList<>();
      for (String c : HOST_COLUMNS) {
        Figure f = row.getValue().get(c);
        if (f == null) {
          cells.add(Cell.empty(null, false));
          continue;
        }
        HostCopy h = (HostCopy) f.measurement();
        double bps = h.bytesPerSecond();
        memNodes.add(String.valueOf(h.memNode()));
        method = h.placementMethod() == null ? method : h.placementMethod();
        String series = SeriesId.id(f.probe(), f.target(), c.replace(' ', '_'), size);
        String name = facts.names().get((int) device);
        Judgement j = judge.judge(facts, series, bps, false, name, c, f.probe(), size);
        cells.add(StatusPage.figureCell(j, gbps(bps), "", null, f.target(), null, series));
        verified &= h.placementVerified();
      }
      out.add(
          new HostTransferRow(
              device,
              node,
              size(size),
              cells,
              String.join(", ", memNodes) + (method.isEmpty() ? "" : " (" + method + ")"),
              verified,
              String.join("; ", pages.getOrDefault(List.of(device, node), List.of()))));
    }
    return new HostTransfer(HOST_COLUMNS, out);
  }

  /** Latency and bus bandwidth per collective, devices and size; null without a figure. */
  Collectives collectives() {
    // (probe, devices, size) -> latency, bus bandwidth
    Map<String, Figure[]> rows = new TreeMap<>();
    for (Figure f : facts.figures()) {
      String devices;
      long size;
      int slot;
      if (f.measurement() instanceof CollectiveLatency l) {
        devices = l.devices();
        size = l.sizeBytes();
        slot = 0;
      } else if (f.measurement() instanceof CollectiveBusBandwidth b) {
        devices = b.devices();
        size = b.sizeBytes();
        slot = 1;
      } else {
        continue;
      }
      String key = f.probe() + "|" + devices + "|" + String.format(Locale.ROOT, "%020d", size);
      rows.computeIfAbsent(key, k -> new Figure[2])[slot] = f;
    }
    if (rows.isEmpty()) {
      return null;
    }
    List<CollectiveRow> out = new ArrayList<>();
    for (var row : rows.entrySet()) {
      String[] k = row.getKey().split("\\|");
      long size = Long.parseLong(k[2]);
      Figure lat = row.getValue()[0];
      Figure bus = row.getValue()[1];
      Cell latency = null;
      String p99 = "";
      if (lat != null) {
        CollectiveLatency l = (CollectiveLatency) lat.measurement();
        double p50 = l.p50Seconds();
        String[] ranks = k[1].split(",");
        String series = SeriesId.id(k[0], lat.target(), "latency_p50", size);
        Judgement j =
            judge.judge(
                facts,
                series,
                p50,
                true,
                facts.names().get(Integer.parseInt(ranks[0].strip())),
                ranks.length + " ranks",
                k[0],
                size);
        latency = StatusPage.figureCell(j, micros(p50), "", null, lat.target(), null, series);
        p99 = micros(l.p99Seconds());
      }
      String busBandwidth = null;
      String busSeries = null;
      if (bus != null) {
        CollectiveBusBandwidth b = (CollectiveBusBandwidth) bus.measurement();
        busBandwidth = gbps(b.busBytesPerSecond()) + " GB/s";
        busSeries = SeriesId.id(k[0], bus.target(), "bus_bandwidth", size);
      }
      out.add(new CollectiveRow(k[0], k[1], size(size), latency, p99, busBandwidth, busSeries));
    }
    return new Collectives(out);
  }
}
