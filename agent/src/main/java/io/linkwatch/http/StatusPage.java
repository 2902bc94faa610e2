package io.linkwatch.http;

import io.linkwatch.history.SeriesId;
import io.linkwatch.verdict.ExpectedFigure;
import io.linkwatch.verdict.ExpectedFigures;
import io.linkwatch.verdict.Verdict;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The status page at {@code /}: the agent's last results as HTML tables that read without
 * JavaScript, rendered from the same document as {@code /api/v1/status}, so it shows nothing the
 * API does not and costs what one status request costs. A small inline script fetches the page
 * again every few seconds and swaps its tables in place (one renderer, no second copy of it in
 * JavaScript); nothing here starts device work.
 *
 * <p>The p2p matrix is a heatmap: every cell prints its GB/s, with the link type, and is coloured
 * by the expected-figures table where it has a row for the product, link and size (OK, warn, low),
 * and otherwise by the figure's ratio to the median of the series' earlier figures in the agent's
 * history ({@link HistoryReferences}: at least 90 %: ok, 80-90 %: warn, below: low), as the table's
 * 80 %/90 % bands. The palette is colour-blind safe (blue, yellow, vermillion, after Okabe and Ito)
 * and a low cell is also marked with a triangle, so colour is never the only sign.
 *
 * <p>Every charted figure's cell holds an empty {@code <span class="spark" data-series="ID">}; the
 * script draws the series' last 24 hours into it as a small SVG line from {@code /api/v1/history},
 * which it fetches again only when the page's {@code data-history-version} changes.
 *
 * <pre>
 * src \ dst   0                1
 * 0           —                119.7 SIO  (ok)
 * 1           59.3 SIO ▼ (low) —
 * </pre>
 */
final class StatusPage {
  /** How often the page's script fetches it again, unless {@code ?refresh=N} says otherwise. */
  static final int REFRESH_SECONDS = 5;

  /** The colour states of a cell, as its {@code data-state} and CSS class name them. */
  enum State {
    OK("ok"),
    WARN("warn"),
    LOW("low"),
    NONE("none");

    final String css;

    State(String css) {
      this.css = css;
    }
  }

  /** A cell's colour and why. */
  record Judgement(State state, String why) {}

  private final List<ExpectedFigure> expected;

  StatusPage(List<ExpectedFigure> expected) {
    this.expected = List.copyOf(expected);
  }

  /**
   * Judges {@code value}, the latest figure of the history series {@code series}: against the
   * expected table's row if there is one, else against the median of the series' earlier figures.
   */
  private Judgement judge(
      Facts facts,
      String series,
      double value,
      boolean latency,
      String deviceName,
      String link,
      String probe,
      long size) {
    Optional<ExpectedFigure> row = ExpectedFigures.find(expected, deviceName, link, probe, size);
    if (row.isPresent()) {
      ExpectedFigure f = row.get();
      Verdict.State v = f.judge(value);
      State state =
          v == Verdict.State.FAIL ? State.LOW : v == Verdict.State.WARN ? State.WARN : State.OK;
      String side = latency ? "above " : "below ";
      return new Judgement(
          state,
          "expected: fails "
              + side
              + f.quantity().format(f.fail())
              + ", warns "
              + side
              + f.quantity().format(f.warn())
              + " ("
              + f.source()
              + ")");
    }
    HistoryReferences.Reference r = facts.references.get(series);
    if (r == null) {
      return new Judgement(State.NONE, "no expected figure, no earlier figure in the history yet");
    }
    double ratio = latency ? r.median() / value : value / r.median();
    State state = ratio >= 0.9 ? State.OK : ratio >= 0.8 ? State.WARN : State.LOW;
    return new Judgement(
        state,
        String.format(
            Locale.ROOT,
            "%.0f %% of this series' median over its %d earlier figures in the history",
            100 * ratio,
            r.figures()));
  }

  /**
   * The whole page for {@code status} (the {@code /api/v1/status} document), its cells judged
   * against {@code history} where no expected figure applies.
   */
  String render(JsonObject status, HistoryReferences history, Instant now, int refreshSeconds) {
    Html h = new Html();
    h.raw("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    // No favicon request (it would be a 404 in every browser's console).
    h.raw("<link rel=\"icon\" href=\"data:,\"><title>linkwatch</title><style>");
    h.raw(CSS);
    h.raw("</style></head><body><header><h1>linkwatch</h1><nav>");
    h.raw("<a href=\"/metrics\">/metrics</a> · <a href=\"/api/v1/status\">/api/v1/status</a>");
    h.raw(" · <a href=\"/healthz\">/healthz</a></nav></header>");
    h.raw("<div id=\"content\" data-history-version=\"" + history.version() + "\">");
    content(h, Facts.of(status, history.get()), status, now, refreshSeconds);
    h.raw("</div>");
    h.raw("<script>").raw(SCRIPT.replace("REFRESH_MS", String.valueOf(refreshSeconds * 1000L)));
    h.raw("</script></body></html>\n");
    return h.toString();
  }

  private void content(Html h, Facts facts, JsonObject status, Instant now, int refreshSeconds) {
    h.raw("<p class=\"meta\">");
    h.text(facts.names.isEmpty() ? "no device inventory yet" : summary(facts));
    h.text(" · as of " + now.toString().replaceFirst("\\.\\d+Z$", "Z"));
    h.raw(" · <span id=\"refresh\">")
        .text("refreshes every " + refreshSeconds + " s")
        .raw("</span><noscript> (reload to refresh)</noscript></p>");
    legend(h);
    matrix(h, facts, "p2p", "P2pBandwidth", "src", "dst", "Device to device (p2p), GB/s");
    matrix(
        h,
        facts,
        "p2p_bidirectional",
        "P2pBidirectionalBandwidth",
        "a",
        "b",
        "Both directions at once (p2p_bidirectional), GB/s per pair");
    hostTransfer(h, facts);
    collectives(h, facts);
    devices(h, status, facts);
    links(h, status);
    health(h, status, now);
  }

  private static String summary(Facts facts) {
    Map<String, Integer> byName = new TreeMap<>();
    facts.names.values().forEach(n -> byName.merge(n, 1, Integer::sum));
    StringBuilder b = new StringBuilder();
    byName.forEach(
        (n, c) -> b.append(b.length() > 0 ? ", " : "").append(c).append(" x ").append(n));
    return b.toString();
  }

  private static void legend(Html h) {
    h.raw("<p class=\"legend\">Cells: <span class=\"cell ok\">ok</span> ")
        .raw("<span class=\"cell warn\">warn</span> <span class=\"cell low\">▼ low</span> ")
        .raw("<span class=\"cell none\">no reference</span> — against the expected figure")
        .raw(" for the product where one is shipped or configured, else against the median of")
        .raw(" the series' earlier figures in the history (hover a cell for which). The line")
        .raw(" under a figure is its series over the history's window, from 0 to its largest")
        .raw(" figure; the dot is the latest.</p>");
  }

  /** A device pair matrix (p2p or bidirectional), one table per size. */
  private void matrix(
      Html h, Facts facts, String probe, String type, String a, String b, String title) {
    // size -> (a, b) -> figure and its target
    Map<Long, Map<List<Integer>, Fig>> bySize = new TreeMap<>();
    for (Fig f : facts.figures) {
      if (f.probe.equals(probe) && f.json.getString("type", "").equals(type)) {
        bySize
            .computeIfAbsent(f.json.getLong("size_bytes", 0L), k -> new TreeMap<>(PAIR_ORDER))
            .put(List.of(f.json.getInteger(a), f.json.getInteger(b)), f);
        if (!probe.equals("p2p")) {
          // Both directions at once: one figure per pair, shown in both of its cells.
          bySize
              .get(f.json.getLong("size_bytes", 0L))
              .put(List.of(f.json.getInteger(b), f.json.getInteger(a)), f);
        }
      }
    }
    Map<String, JsonObject> failed = facts.unsuccessful(probe);
    if (bySize.isEmpty() && failed.isEmpty()) {
      return;
    }
    if (bySize.isEmpty()) {
      bySize.put(-1L, Map.of());
    }
    TreeSet<Integer> devices = new TreeSet<>(facts.names.keySet());
    bySize.values().forEach(m -> m.keySet().forEach(devices::addAll));
    for (var e : bySize.entrySet()) {
      h.raw("<section><h2>").text(title);
      if (e.getKey() >= 0) {
        h.text(" · " + size(e.getKey()));
      }
      h.raw("</h2><table class=\"matrix\" data-probe=\"").text(probe).raw("\"><tr><th>src \\ dst");
      for (int d : devices) {
        h.raw("<th>").text(String.valueOf(d));
      }
      for (int s : devices) {
        h.raw("<tr><th>").text(String.valueOf(s));
        for (int d : devices) {
          Fig f = e.getValue().get(List.of(s, d));
          String target =
              probe.equals("p2p") ? s + "->" + d : Math.min(s, d) + "<->" + Math.max(s, d);
          JsonObject bad = failed.get(target);
          if (s == d) {
            h.raw("<td class=\"diag\">—");
          } else if (f != null) {
            double bps = f.json.getDouble("bytes_per_second", Double.NaN);
            String link = f.json.getString("link", "");
            String series = SeriesId.id(probe, f.target, "bandwidth", e.getKey());
            Judgement j =
                judge(facts, series, bps, false, facts.names.get(s), link, probe, e.getKey());
            cell(h, j, gbps(bps), link, bad, f.target, s, d, series);
          } else if (bad != null) {
            h.raw("<td class=\"cell low\" data-src=\"" + s + "\" data-dst=\"" + d + "\"");
            h.raw(" data-state=\"low\" title=\"").text(why(bad)).raw("\">");
            h.raw("<span class=\"v\">").text(bad.getString("result")).raw("</span>");
          } else if (!facts.targets.contains(probe + "|" + target)) {
            h.raw("<td class=\"cell none\" data-src=\"" + s + "\" data-dst=\"" + d + "\">");
          } else {
            h.raw("<td class=\"cell none\" data-src=\"" + s + "\" data-dst=\"" + d + "\">…");
          }
        }
      }
      h.raw("</table></section>");
    }
  }

  private static void cell(
      Html h,
      Judgement j,
      String value,
      String sub,
      JsonObject bad,
      String target,
      int s,
      int d,
      String series) {
    boolean waiting = bad != null && bad.containsKey("waiting_for_idle_since");
    h.raw("<td class=\"cell ").raw(j.state().css).raw("\"");
    if (s >= 0) {
      h.raw(" data-src=\"" + s + "\" data-dst=\"" + d + "\"");
    }
    h.raw(" data-target=\"").text(target).raw("\" data-state=\"").raw(j.state().css).raw("\"");
    h.raw(" title=\"").text(j.why() + (bad != null ? "; last run: " + why(bad) : "")).raw("\">");
    h.raw("<span class=\"v\">").text(value).raw("</span>");
    if (j.state() == State.LOW) {
      h.raw(" <span class=\"mark\">▼</span>");
    }
    if (bad != null) {
      h.raw(" <span class=\"mark\">").text(waiting ? "(waiting)" : "!").raw("</span>");
    }
    if (!sub.isEmpty()) {
      h.raw("<br><small>").text(sub).raw("</small>");
    }
    spark(h, series);
  }

  /** Where the script draws the series' chart. */
  private static void spark(Html h, String series) {
    h.raw("<span class=\"spark\" data-series=\"").text(series).raw("\"></span>");
  }

  private static String why(JsonObject t) {
    StringBuilder b = new StringBuilder(t.getString("result", ""));
    if (t.getString("failed_call") != null) {
      b.append(" in ").append(t.getString("failed_call"));
    }
    String error = t.getString("error", "");
    if (!error.isEmpty()) {
      b.append(": ").append(error);
    }
    if (t.containsKey("waiting_because")) {
      b.append("; waiting for idle: ").append(t.getString("waiting_because"));
    }
    return b.toString();
  }

  private void hostTransfer(Html h, Facts facts) {
    // (device, cpu node, size) -> "memory direction" -> figure
    Map<List<Long>, Map<String, Fig>> rows = new TreeMap<>(LONG_LIST_ORDER);
    Map<List<Long>, List<String>> pages = new TreeMap<>(LONG_LIST_ORDER);
    for (Fig f : facts.figures) {
      String type = f.json.getString("type", "");
      if (!f.probe.equals("host_transfer")) {
        continue;
      }
      long device = f.json.getLong("device", -1L);
      long node = f.json.getLong("cpu_node", -1L);
      if (type.equals("HostTransferBandwidth")) {
        rows.computeIfAbsent(
                List.of(device, node, f.json.getLong("size_bytes", 0L)), k -> new TreeMap<>())
            .put(f.json.getString("memory") + " " + f.json.getString("direction"), f);
      } else if (type.equals("HostBufferPages")) {
        pages
            .computeIfAbsent(List.of(device, node), k -> new ArrayList<>())
            .add(
                String.format(
                    Locale.ROOT,
                    "%s: %.0f %% on node %s",
                    f.json.getString("memory"),
                    100 * f.json.getDouble("ratio", Double.NaN),
                    f.json.getValue("mem_node")));
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    List<String> columns = List.of("pinned h2d", "pinned d2h", "pageable h2d", "pageable d2h");
    h.raw("<section><h2>Host transfer per device and NUMA node, GB/s</h2>");
    h.raw("<table class=\"grid\" data-probe=\"host_transfer\"><tr><th>device<th>CPU node<th>size");
    columns.forEach(c -> h.raw("<th>").text(c));
    h.raw("<th>memory node (how found)<th>placement verified<th>pages where they should be</tr>");
    for (var row : rows.entrySet()) {
      long device = row.getKey().get(0);
      long node = row.getKey().get(1);
      long size = row.getKey().get(2);
      h.raw("<tr><td>").text(String.valueOf(device)).raw("<td>").text(String.valueOf(node));
      h.raw("<td>").text(size(size));
      TreeSet<String> memNodes = new TreeSet<>();
      String method = "";
      boolean verified = !row.getValue().isEmpty();
      for (String c : columns) {
        Fig f = row.getValue().get(c);
        if (f == null) {
          h.raw("<td class=\"cell none\">");
          continue;
        }
        double bps = f.json.getDouble("bytes_per_second", Double.NaN);
        memNodes.add(String.valueOf(f.json.getValue("mem_node")));
        method = f.json.getString("placement_method", method);
        String series = SeriesId.id("host_transfer", f.target, c.replace(' ', '_'), size);
        Judgement j =
            judge(
                facts, series, bps, false, facts.names.get((int) device), c, "host_transfer", size);
        cell(h, j, gbps(bps), "", null, f.target, -1, -1, series);
        verified &= placementVerified(f.json);
      }
      h.raw("<td>")
          .text(String.join(", ", memNodes) + (method.isEmpty() ? "" : " (" + method + ")"));
      h.raw("<td class=\"placement\" data-verified=\"" + verified + "\">");
      h.text(verified ? "yes" : "no");
      h.raw("<td>").text(String.join("; ", pages.getOrDefault(List.of(device, node), List.of())));
    }
    h.raw("</table></section>");
  }

  /**
   * Whether the probe found where a figure's buffer pages were ({@code move_pages} or {@code
   * numa_maps}); {@code unknown} means they were not checked and the row's NUMA claim is unproven.
   */
  private static boolean placementVerified(JsonObject figure) {
    return !"unknown".equals(figure.getString("placement_method", "unknown"))
        && !"unknown".equals(String.valueOf(figure.getValue("mem_node", "unknown")));
  }

  private void collectives(Html h, Facts facts) {
    // (probe, devices, size) -> latency, bus bandwidth
    Map<String, Fig[]> rows = new TreeMap<>();
    for (Fig f : facts.figures) {
      String type = f.json.getString("type", "");
      int slot = type.endsWith("Latency") ? 0 : type.endsWith("BusBandwidth") ? 1 : -1;
      if (slot < 0 || !f.json.containsKey("devices")) {
        continue;
      }
      String key =
          f.probe
              + "|"
              + f.json.getString("devices")
              + "|"
              + String.format(Locale.ROOT, "%020d", f.json.getLong("size_bytes", 0L));
      rows.computeIfAbsent(key, k -> new Fig[2])[slot] = f;
    }
    if (rows.isEmpty()) {
      return;
    }
    h.raw("<section><h2>Collectives</h2><table class=\"grid\" data-probe=\"collectives\">");
    h.raw("<tr><th>probe<th>devices<th>size<th>latency p50<th>latency p99<th>bus bandwidth</tr>");
    for (var row : rows.entrySet()) {
      String[] k = row.getKey().split("\\|");
      long size = Long.parseLong(k[2]);
      Fig lat = row.getValue()[0];
      Fig bus = row.getValue()[1];
      h.raw("<tr><td>").text(k[0]).raw("<td>").text(k[1]).raw("<td>").text(size(size));
      if (lat != null && lat.json.getValue("p50_seconds") instanceof Number p50) {
        String[] ranks = k[1].split(",");
        String series = SeriesId.id(k[0], lat.target, "latency_p50", size);
        Judgement j =
            judge(
                facts,
                series,
                p50.doubleValue(),
                true,
                facts.names.get(Integer.parseInt(ranks[0].strip())),
                ranks.length + " ranks",
                k[0],
                size);
        cell(h, j, micros(p50.doubleValue()), "", null, lat.target, -1, -1, series);
        h.raw("<td>").text(micros(lat.json.getDouble("p99_seconds", Double.NaN)));
      } else {
        h.raw("<td><td>");
      }
      h.raw("<td>");
      if (bus != null) {
        h.text(gbps(bus.json.getDouble("bus_bytes_per_second", Double.NaN)) + " GB/s");
        spark(h, SeriesId.id(k[0], bus.target, "bus_bandwidth", size));
      }
    }
    h.raw("</table></section>");
  }

  private static void devices(Html h, JsonObject status, Facts facts) {
    JsonArray devices = status.getJsonArray("devices", new JsonArray());
    Map<Integer, JsonObject> activity = new TreeMap<>();
    devices.forEach(o -> activity.put(((JsonObject) o).getInteger("device"), (JsonObject) o));
    TreeSet<Integer> all = new TreeSet<>(facts.names.keySet());
    all.addAll(activity.keySet());
    if (all.isEmpty()) {
      return;
    }
    Map<Integer, Fig> hbm = new TreeMap<>();
    Map<Integer, Long> memory = new TreeMap<>();
    for (Fig f : facts.figures) {
      String type = f.json.getString("type", "");
      if (type.equals("DeviceMemoryBandwidth")) {
        hbm.put(f.json.getInteger("device"), f);
      } else if (type.equals("DeviceInfo")
          && f.json.getValue("memory_total_bytes") instanceof Number n) {
        memory.put(f.json.getInteger("device"), n.longValue());
      }
    }
    h.raw("<section><h2>Devices</h2><table class=\"grid\" id=\"devices\">");
    h.raw("<tr><th>device<th>name<th>memory<th>local copy<th>state<th>why<th>checked</tr>");
    for (int d : all) {
      JsonObject a = activity.get(d);
      boolean busy = a != null && a.getBoolean("busy", false);
      h.raw("<tr data-device=\"" + d + "\" data-busy=\"" + busy + "\"><td>")
          .text(String.valueOf(d));
      h.raw("<td>").text(facts.names.getOrDefault(d, ""));
      h.raw("<td>").text(memory.containsKey(d) ? size(memory.get(d)) : "");
      h.raw("<td>");
      Fig local = hbm.get(d);
      if (local != null) {
        h.text(gbps(local.json.getDouble("bytes_per_second", Double.NaN)) + " GB/s");
        spark(
            h,
            SeriesId.id(
                local.probe, local.target, "bandwidth", local.json.getLong("size_bytes", 0L)));
      }
      if (a == null) {
        h.raw("<td>not checked yet<td><td>");
        continue;
      }
      h.raw(busy ? "<td class=\"busy\">busy" : "<td class=\"idle\">idle");
      List<String> reasons = new ArrayList<>();
      a.getJsonArray("reasons", new JsonArray()).forEach(r -> reasons.add(String.valueOf(r)));
      h.raw("<td>").text(String.join("; ", reasons));
      h.raw("<td>").text(a.getString("source", "") + " " + a.getString("checked", ""));
    }
    h.raw("</table></section>");
  }

  private static void links(Html h, JsonObject status) {
    JsonObject passive = status.getJsonObject("passive");
    if (passive == null) {
      return;
    }
    JsonArray devices = passive.getJsonArray("devices", new JsonArray());
    if (devices.isEmpty()) {
      return;
    }
    h.raw("<section><h2>Link state (passive, read all the time)</h2>");
    h.raw("<table class=\"grid\" id=\"links\"><tr><th>source<th>device<th>read<th>link");
    h.raw("<th>type<th>peer<th>up<th>lanes<th>error counters</tr>");
    for (Object o : devices) {
      JsonObject d = (JsonObject) o;
      List<JsonObject> rows = new ArrayList<>();
      d.getJsonArray("links", new JsonArray()).forEach(l -> rows.add((JsonObject) l));
      for (Object p : d.getJsonArray("pcie", new JsonArray())) {
        JsonObject hop = (JsonObject) p;
        rows.add(
            new JsonObject()
                .put("link", "PCIe " + hop.getString("role", ""))
                .put("link_type", hop.getString("pci_address", ""))
                .put("lanes", hop.getValue("width"))
                .put("lanes_max", hop.getValue("max_width")));
      }
      String read = d.getString("result", "");
      if (d.getString("failed_call") != null) {
        read += " in " + d.getString("failed_call");
      }
      if (d.getString("skipped_because") != null) {
        read += " (" + d.getString("skipped_because") + ")";
      }
      if (rows.isEmpty()) {
        rows.add(new JsonObject());
      }
      for (JsonObject l : rows) {
        h.raw("<tr><td>").text(d.getString("source", "")).raw("<td>");
        h.text(String.valueOf(d.getValue("device"))).raw("<td>").text(read);
        h.raw("<td>")
            .text(string(l.getValue("link")))
            .raw("<td>")
            .text(string(l.getValue("link_type")));
        h.raw("<td>").text(string(l.getValue("peer")));
        Object up = l.getValue("up");
        h.raw(
            Boolean.FALSE.equals(up)
                ? "<td class=\"cell low\">down"
                : "<td>" + (up == null ? "" : "up"));
        Object lanes = l.getValue("lanes");
        Object max = l.getValue("lanes_max");
        boolean narrow =
            lanes instanceof Number n && max instanceof Number m && n.intValue() < m.intValue();
        h.raw(narrow ? "<td class=\"cell warn\">" : "<td>");
        h.text(lanes == null ? "" : lanes + (max == null ? "" : " / " + max));
        JsonObject errors = l.getJsonObject("errors", new JsonObject());
        long sum = 0;
        for (String k : errors.fieldNames()) {
          if (errors.getValue(k) instanceof Number n) {
            sum += n.longValue();
          }
        }
        h.raw(sum > 0 ? "<td class=\"cell warn\">" : "<td>");
        List<String> parts = new ArrayList<>();
        errors.forEach(e -> parts.add(e.getKey() + " " + e.getValue()));
        h.text(String.join(", ", parts));
      }
    }
    h.raw("</table></section>");
  }

  private static void health(Html h, JsonObject status, Instant now) {
    JsonArray targets = status.getJsonArray("targets", new JsonArray());
    h.raw("<section><h2>Probe health</h2><table class=\"grid\" id=\"health\">");
    h.raw("<tr><th>probe<th>target<th>result<th>last run<th>took<th>failing call / error");
    h.raw("<th>waiting for idle<th>next run</tr>");
    for (Object o : targets) {
      JsonObject t = (JsonObject) o;
      String result = t.getString("result", "");
      h.raw("<tr><td>").text(t.getString("probe", "")).raw("<td>").text(t.getString("target", ""));
      h.raw(result.equals("success") ? "<td>" : "<td class=\"cell low\">").text(result);
      h.raw("<td>").text(ago(t.getString("last_run"), now));
      Object took = t.getValue("duration_seconds");
      h.raw("<td>")
          .text(
              took instanceof Number n
                  ? String.format(Locale.ROOT, "%.2f s", n.doubleValue())
                  : "");
      String call = t.getString("failed_call");
      String error = t.getString("error", "");
      h.raw("<td>").text((call == null ? "" : call + ": ") + error);
      h.raw("<td>");
      if (t.containsKey("waiting_for_idle_since")) {
        h.text(
            "since "
                + ago(t.getString("waiting_for_idle_since"), now)
                + ": "
                + t.getString("waiting_because", ""));
      }
      h.raw("<td>").text(until(t.getString("next_run"), now));
    }
    h.raw("</table>");
    JsonObject na = status.getJsonObject("not_applicable", new JsonObject());
    if (!na.isEmpty()) {
      h.raw("<p>Not applicable here: ");
      List<String> parts = new ArrayList<>();
      na.forEach(e -> parts.add(e.getKey() + " (" + e.getValue() + ")"));
      h.text(String.join("; ", parts)).raw("</p>");
    }
    h.raw("</section>");
  }

  /** One figure with the probe and target it came from. */
  private record Fig(String probe, String target, JsonObject json) {}

  /**
   * What the status document says, flattened once per render, and the history's reference figure of
   * each series.
   */
  private record Facts(
      List<Fig> figures,
      Map<Integer, String> names,
      List<JsonObject> all,
      java.util.Set<String> targets,
      Map<String, HistoryReferences.Reference> references) {
    static Facts of(JsonObject status, Map<String, HistoryReferences.Reference> references) {
      List<Fig> figures = new ArrayList<>();
      Map<Integer, String> names = new TreeMap<>();
      List<JsonObject> all = new ArrayList<>();
      java.util.Set<String> targets = new java.util.HashSet<>();
      for (Object o : status.getJsonArray("targets", new JsonArray())) {
        JsonObject t = (JsonObject) o;
        all.add(t);
        String probe = t.getString("probe", "");
        String target = t.getString("target", "");
        targets.add(probe + "|" + target);
        for (Object m : t.getJsonArray("measurements", new JsonArray())) {
          JsonObject fig = (JsonObject) m;
          figures.add(new Fig(probe, target, fig));
          if ("DeviceInfo".equals(fig.getString("type")) && fig.getInteger("device") != null) {
            names.put(fig.getInteger("device"), fig.getString("name", ""));
          }
        }
      }
      return new Facts(figures, names, all, targets, references);
    }

    /** The probe's targets whose last run did not succeed, by target. */
    Map<String, JsonObject> unsuccessful(String probe) {
      Map<String, JsonObject> out = new TreeMap<>();
      for (JsonObject t : all) {
        if (probe.equals(t.getString("probe"))
            && (!"success".equals(t.getString("result"))
                || t.containsKey("waiting_for_idle_since"))) {
          out.put(t.getString("target"), t);
        }
      }
      return out;
    }
  }

  private static final java.util.Comparator<List<Integer>> PAIR_ORDER =
      java.util.Comparator.<List<Integer>>comparingInt(l -> l.get(0))
          .thenComparingInt(l -> l.get(1));

  private static final java.util.Comparator<List<Long>> LONG_LIST_ORDER =
      (x, y) -> {
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
          int c = Long.compare(x.get(i), y.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(x.size(), y.size());
      };

  static String gbps(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.1f", bytesPerSecond / 1e9);
  }

  private static String micros(double seconds) {
    return Double.isNaN(seconds) ? "" : String.format(Locale.ROOT, "%.1f µs", seconds * 1e6);
  }

  private static String size(long bytes) {
    if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
      return bytes / (1L << 30) + " GiB";
    }
    if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
      return bytes / (1L << 20) + " MiB";
    }
    if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
      return bytes / (1L << 10) + " KiB";
    }
    return bytes + " B";
  }

  private static String string(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  private static Optional<Instant> instant(String iso) {
    if (iso == null || iso.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(iso));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** {@code 12 s ago}, {@code 3 min ago}, or empty. */
  static String ago(String iso, Instant now) {
    return instant(iso).map(t -> span(Duration.between(t, now)) + " ago").orElse("");
  }

  /** {@code in 12 s}, {@code due}, or empty. */
  static String until(String iso, Instant now) {
    return instant(iso)
        .map(
            t -> {
              Duration d = Duration.between(now, t);
              return d.isNegative() ? "due" : "in " + span(d);
            })
        .orElse("");
  }

  private static String span(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s < 120) {
      return s + " s";
    }
    if (s < 7200) {
      return s / 60 + " min";
    }
    return s < 172800 ? s / 3600 + " h" : s / 86400 + " d";
  }

  /** HTML text with everything escaped unless it goes through {@link #raw}. */
  private static final class Html {
    private final StringBuilder b = new StringBuilder(16 * 1024);

    Html raw(String s) {
      b.append(s);
      return this;
    }

    Html text(String s) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '<' -> b.append("&lt;");
          case '>' -> b.append("&gt;");
          case '&' -> b.append("&amp;");
          case '"' -> b.append("&quot;");
          case '\'' -> b.append("&#39;");
          default -> b.append(c);
        }
      }
      return this;
    }

    @Override
    public String toString() {
      return b.toString();
    }
  }

  /** Okabe-Ito sky blue, yellow and vermillion: told apart with any common colour vision. */
  private static final String CSS =
      """
      body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;background:#fff}
      header{display:flex;align-items:baseline;gap:2em}h1{margin:0 0 .2em}
      h2{font-size:1.05em;margin:1.2em 0 .4em}
      table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
      th{background:#f4f4f4}.grid td:nth-child(-n+2){text-align:left}
      .matrix td{min-width:5.5em;text-align:center}.matrix .v{font-weight:600;font-size:1.1em}
      .cell.ok{background:#a6d4f2}.cell.warn{background:#f0e442}
      .cell.low{background:#d55e00;color:#fff}.cell.none{background:#eee}
      .legend .cell{padding:0 .5em;border:1px solid #ccc}
      .diag{background:#fafafa;color:#999;text-align:center}
      .busy{background:#d55e00;color:#fff;font-weight:600}.idle{color:#555}
      .meta,.legend{color:#555}small{color:inherit;opacity:.85}
      .spark{display:block;height:16px}.spark:empty{display:none}
      .spark svg{display:block;margin:2px auto 0;overflow:visible}
      .spark polyline{fill:none;stroke:currentColor;stroke-width:1.2}
      .spark circle{fill:currentColor}
      """;

  /**
   * Fetches the page again and swaps its content, and draws the charts: {@code /api/v1/history} is
   * fetched once, then again only when the page's history version moves. URLs are built from the
   * origin, so a page opened as {@code https://user:pass@host/} still fetches (a URL with
   * credentials would throw). A chart spans the history's whole window (gaps stay gaps) and runs
   * from 0 to the series' largest figure, so a drop reads as its share of the whole.
   */
  private static final String SCRIPT =
      """
      (function () {
        var every = REFRESH_MS, W = 64, H = 16, NS = 'http://www.w3.org/2000/svg';
        var history = null, version = null;
        function url(path) { return new URL(path, location.origin); }
        function label(unit, v) {
          return unit === 'seconds' ? (v * 1e6).toFixed(1) + ' µs' : (v / 1e9).toFixed(1) + ' GB/s';
        }
        function chart(s) {
          var span = history.end_seconds - history.start_seconds, max = 0;
          s.points.forEach(function (p) { max = Math.max(max, p[1]); });
          var xy = s.points.map(function (p) {
            var x = (p[0] - history.start_seconds) / span * W;
            var y = max > 0 ? (H - 1) - p[1] / max * (H - 2) : H - 1;
            return x.toFixed(2) + ',' + y.toFixed(2);
          });
          var svg = document.createElementNS(NS, 'svg');
          svg.setAttribute('width', W);
          svg.setAttribute('height', H);
          svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
          var title = document.createElementNS(NS, 'title');
          var values = s.points.map(function (p) { return p[1]; });
          title.textContent = s.points.length + ' figures in the last '
            + Math.round(span / 3600) + ' h, ' + label(s.unit, Math.min.apply(null, values))
            + ' to ' + label(s.unit, max);
          svg.appendChild(title);
          var line = document.createElementNS(NS, 'polyline');
          line.setAttribute('points', xy.join(' '));
          svg.appendChild(line);
          var last = xy[xy.length - 1].split(',');
          var dot = document.createElementNS(NS, 'circle');
          dot.setAttribute('cx', last[0]);
          dot.setAttribute('cy', last[1]);
          dot.setAttribute('r', 1.5);
          svg.appendChild(dot);
          return svg;
        }
        function paint() {
          var byId = {};
          history.series.forEach(function (s) { byId[s.id] = s; });
          document.querySelectorAll('.spark[data-series]').forEach(function (el) {
            var s = byId[el.dataset.series];
            el.replaceChildren.apply(el, s ? [chart(s)] : []);
          });
        }
        function charts() {
          var want = document.getElementById('content').dataset.historyVersion;
          if (history && want === version) { paint(); return; }
          fetch(url('/api/v1/history'), {cache: 'no-store'})
            .then(function (r) {
              if (!r.ok) { throw new Error('HTTP ' + r.status); }
              return r.json();
            })
            .then(function (h) { history = h; version = want; paint(); })
            .catch(function (e) {
              var s = document.getElementById('refresh');
              if (s) { s.textContent = 'charts failed (' + e.message + ')'; }
            });
        }
        function tick() {
          fetch(url(location.pathname + location.search), {cache: 'no-store'})
            .then(function (r) {
              if (!r.ok) { throw new Error('HTTP ' + r.status); }
              return r.text();
            })
            .then(function (text) {
              var next = new DOMParser().parseFromString(text, 'text/html').getElementById('content');
              if (next) { document.getElementById('content').replaceWith(next); charts(); }
            })
            .catch(function (e) {
              var s = document.getElementById('refresh');
              if (s) { s.textContent = 'refresh failed (' + e.message + '), retrying'; }
            })
            .finally(function () { setTimeout(tick, every); });
        }
        charts();
        setTimeout(tick, every);
      })();
      """;
}
