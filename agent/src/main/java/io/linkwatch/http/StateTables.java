package io.linkwatch.http;

import static io.linkwatch.http.StatusFormat.ago;
import static io.linkwatch.http.StatusFormat.gbps;
import static io.linkwatch.http.StatusFormat.size;
import static io.linkwatch.http.StatusFormat.string;
import static io.linkwatch.http.StatusFormat.until;

import io.linkwatch.history.SeriesId;
import io.linkwatch.http.StatusFacts.Fig;
import io.linkwatch.http.StatusPageModel.DeviceRow;
import io.linkwatch.http.StatusPageModel.Devices;
import io.linkwatch.http.StatusPageModel.Health;
import io.linkwatch.http.StatusPageModel.HealthRow;
import io.linkwatch.http.StatusPageModel.LinkRow;
import io.linkwatch.http.StatusPageModel.Links;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The status page's tables of state: the devices, the passive link state, the probes' health. */
final class StateTables {
  private StateTables() {}

  /** Every device the inventory or the busy check knows; null without one. */
  static Devices devices(JsonObject status, StatusFacts facts) {
    JsonArray devices = status.getJsonArray("devices", new JsonArray());
    Map<Integer, JsonObject> activity = new TreeMap<>();
    devices.forEach(o -> activity.put(((JsonObject) o).getInteger("device"), (JsonObject) o));
    TreeSet<Integer> all = new TreeSet<>(facts.names().keySet());
    all.addAll(activity.keySet());
    if (all.isEmpty()) {
      return null;
    }
    Map<Integer, Fig> hbm = new TreeMap<>();
    Map<Integer, Long> memory = new TreeMap<>();
    for (Fig f : facts.figures()) {
      String type = f.json().getString("type", "");
      if (type.equals("DeviceMemoryBandwidth")) {
        hbm.put(f.json().getInteger("device"), f);
      } else if (type.equals("DeviceInfo")
          && f.json().getValue("memory_total_bytes") instanceof Number n) {
        memory.put(f.json().getInteger("device"), n.longValue());
      }
    }
    List<DeviceRow> rows = new ArrayList<>();
    for (int d : all) {
      JsonObject a = activity.get(d);
      boolean busy = a != null && a.getBoolean("busy", false);
      Fig local = hbm.get(d);
      String localCopy = null;
      String localSeries = null;
      if (local != null) {
        JsonObject json = local.json();
        localCopy = gbps(json.getDouble("bytes_per_second", Double.NaN)) + " GB/s";
        long size = json.getLong("size_bytes", 0L);
        localSeries = SeriesId.id(local.probe(), local.target(), "bandwidth", size);
      }
      List<String> reasons = new ArrayList<>();
      if (a != null) {
        a.getJsonArray("reasons", new JsonArray()).forEach(r -> reasons.add(String.valueOf(r)));
      }
      rows.add(
          new DeviceRow(
              d,
              facts.names().getOrDefault(d, ""),
              memory.containsKey(d) ? size(memory.get(d)) : "",
              localCopy,
              localSeries,
              a != null,
              busy,
              String.join("; ", reasons),
              a == null ? null : a.getString("source", "") + " " + a.getString("checked", "")));
    }
    return new Devices(rows);
  }

  /** A row per link and PCIe hop of every device the passive reader read; null without one. */
  static Links links(JsonObject status) {
    JsonObject passive = status.getJsonObject("passive");
    if (passive == null) {
      return null;
    }
    JsonArray devices = passive.getJsonArray("devices", new JsonArray());
    if (devices.isEmpty()) {
      return null;
    }
    List<LinkRow> out = new ArrayList<>();
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
        Object up = l.getValue("up");
        Object lanes = l.getValue("lanes");
        Object max = l.getValue("lanes_max");
        boolean narrow =
            lanes instanceof Number n && max instanceof Number m && n.intValue() < m.intValue();
        JsonObject errors = l.getJsonObject("errors", new JsonObject());
        long sum = 0;
        for (String k : errors.fieldNames()) {
          if (errors.getValue(k) instanceof Number n) {
            sum += n.longValue();
          }
        }
        List<String> parts = new ArrayList<>();
        errors.forEach(e -> parts.add(e.getKey() + " " + e.getValue()));
        out.add(
            new LinkRow(
                d.getString("source", ""),
                String.valueOf(d.getValue("device")),
                read,
                string(l.getValue("link")),
                string(l.getValue("link_type")),
                string(l.getValue("peer")),
                Boolean.FALSE.equals(up),
                up == null ? "" : "up",
                narrow,
                lanes == null ? "" : lanes + (max == null ? "" : " / " + max),
                sum > 0,
                String.join(", ", parts)));
      }
    }
    return new Links(out);
  }

  /** Every target's last run and next one, and the probes that do not apply here. */
  static Health health(JsonObject status, Instant now) {
    List<HealthRow> rows = new ArrayList<>();
    for (Object o : status.getJsonArray("targets", new JsonArray())) {
      JsonObject t = (JsonObject) o;
      String result = t.getString("result", "");
      Object took = t.getValue("duration_seconds");
      String call = t.getString("failed_call");
      String waiting =
          t.containsKey("waiting_for_idle_since")
              ? "since "
                  + ago(t.getString("waiting_for_idle_since"), now)
                  + ": "
                  + t.getString("waiting_because", "")
              : null;
      rows.add(
          new HealthRow(
              t.getString("probe", ""),
              t.getString("target", ""),
              result.equals("success"),
              result,
              ago(t.getString("last_run"), now),
              took instanceof Number n ? String.format(Locale.ROOT, "%.2f s", n.doubleValue()) : "",
              (call == null ? "" : call + ": ") + t.getString("error", ""),
              waiting,
              until(t.getString("next_run"), now)));
    }
    JsonObject na = status.getJsonObject("not_applicable", new JsonObject());
    List<String> parts = new ArrayList<>();
    na.forEach(e -> parts.add(e.getKey() + " (" + e.getValue() + ")"));
    return new Health(rows, parts.isEmpty() ? null : String.join("; ", parts));
  }
}
