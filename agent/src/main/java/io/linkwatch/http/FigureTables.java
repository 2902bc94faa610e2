package io.linkwatch.http;

import static io.linkwatch.http.StatusFormat.gbps;
import static io.linkwatch.http.StatusFormat.micros;
import static io.linkwatch.http.StatusFormat.size;

import io.linkwatch.history.SeriesId;
import io.linkwatch.http.CellJudge.Judgement;
import io.linkwatch.http.StatusFacts.Fig;
import io.linkwatch.http.StatusPageModel.Cell;
import io.linkwatch.http.StatusPageModel.CollectiveRow;
import io.linkwatch.http.StatusPageModel.Collectives;
import io.linkwatch.http.StatusPageModel.HostTransfer;
import io.linkwatch.http.StatusPageModel.HostTransferRow;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The status page's tables of host transfer and collective figures, judged as the matrix is. */
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
    Map<List<Long>, Map<String, Fig>> rows = new TreeMap<>(LONG_LIST_ORDER);
    Map<List<Long>, List<String>> pages = new TreeMap<>(LONG_LIST_ORDER);
    for (Fig f : facts.figures()) {
      String type = f.json().getString("type", "");
      if (!f.probe().equals("host_transfer")) {
        continue;
      }
      long device = f.json().getLong("device", -1L);
      long node = f.json().getLong("cpu_node", -1L);
      if (type.equals("HostTransferBandwidth")) {
        rows.computeIfAbsent(
                List.of(device, node, f.json().getLong("size_bytes", 0L)), k -> new TreeMap<>())
            .put(f.json().getString("memory") + " " + f.json().getString("direction"), f);
      } else if (type.equals("HostBufferPages")) {
        pages
            .computeIfAbsent(List.of(device, node), k -> new ArrayList<>())
            .add(
                String.format(
                    Locale.ROOT,
                    "%s: %.0f %% on node %s",
                    f.json().getString("memory"),
                    100 * f.json().getDouble("ratio", Double.NaN),
                    f.json().getValue("mem_node")));
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
        Fig f = row.getValue().get(c);
        if (f == null) {
          cells.add(Cell.empty(null, false));
          continue;
        }
        double bps = f.json().getDouble("bytes_per_second", Double.NaN);
        memNodes.add(String.valueOf(f.json().getValue("mem_node")));
        method = f.json().getString("placement_method", method);
        String series = SeriesId.id("host_transfer", f.target(), c.replace(' ', '_'), size);
        String name = facts.names().get((int) device);
        Judgement j = judge.judge(facts, series, bps, false, name, c, "host_transfer", size);
        cells.add(StatusPage.figureCell(j, gbps(bps), "", null, f.target(), null, series));
        verified &= placementVerified(f.json());
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

  /**
   * Whether the probe found where a figure's buffer pages were ({@code move_pages} or {@code
   * numa_maps}); {@code unknown} means they were not checked and the row's NUMA claim is unproven.
   */
  private static boolean placementVerified(JsonObject figure) {
    return !"unknown".equals(figure.getString("placement_method", "unknown"))
        && !"unknown".equals(String.valueOf(figure.getValue("mem_node", "unknown")));
  }

  /** Latency and bus bandwidth per collective, devices and size; null without a figure. */
  Collectives collectives() {
    // (probe, devices, size) -> latency, bus bandwidth
    Map<String, Fig[]> rows = new TreeMap<>();
    for (Fig f : facts.figures()) {
      String type = f.json().getString("type", "");
      int slot = type.endsWith("Latency") ? 0 : type.endsWith("BusBandwidth") ? 1 : -1;
      if (slot < 0 || !f.json().containsKey("devices")) {
        continue;
      }
      String key =
          f.probe()
              + "|"
              + f.json().getString("devices")
              + "|"
              + String.format(Locale.ROOT, "%020d", f.json().getLong("size_bytes", 0L));
      rows.computeIfAbsent(key, k -> new Fig[2])[slot] = f;
    }
    if (rows.isEmpty()) {
      return null;
    }
    List<CollectiveRow> out = new ArrayList<>();
    for (var row : rows.entrySet()) {
      String[] k = row.getKey().split("\\|");
      long size = Long.parseLong(k[2]);
      Fig lat = row.getValue()[0];
      Fig bus = row.getValue()[1];
      Cell latency = null;
      String p99 = "";
      if (lat != null && lat.json().getValue("p50_seconds") instanceof Number p50) {
        String[] ranks = k[1].split(",");
        String series = SeriesId.id(k[0], lat.target(), "latency_p50", size);
        Judgement j =
            judge.judge(
                facts,
                series,
                p50.doubleValue(),
                true,
                facts.names().get(Integer.parseInt(ranks[0].strip())),
                ranks.length + " ranks",
                k[0],
                size);
        latency =
            StatusPage.figureCell(
                j, micros(p50.doubleValue()), "", null, lat.target(), null, series);
        p99 = micros(lat.json().getDouble("p99_seconds", Double.NaN));
      }
      String busBandwidth = null;
      String busSeries = null;
      if (bus != null) {
        busBandwidth = gbps(bus.json().getDouble("bus_bytes_per_second", Double.NaN)) + " GB/s";
        busSeries = SeriesId.id(k[0], bus.target(), "bus_bandwidth", size);
      }
      out.add(new CollectiveRow(k[0], k[1], size(size), latency, p99, busBandwidth, busSeries));
    }
    return new Collectives(out);
  }
}
