package io.linkwatch.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the status document says, flattened once per render of the status page, and the history's
 * reference figure of each series.
 */
record StatusFacts(
    List<StatusFacts.Fig> figures,
    Map<Integer, String> names,
    List<JsonObject> all,
    Set<String> targets,
    Map<String, HistoryReferences.Reference> references) {

  /** One figure with the probe and target it came from. */
  record Fig(String probe, String target, JsonObject json) {}

  static StatusFacts of(JsonObject status, Map<String, HistoryReferences.Reference> references) {
    List<Fig> figures = new ArrayList<>();
    Map<Integer, String> names = new TreeMap<>();
    List<JsonObject> all = new ArrayList<>();
    Set<String> targets = new HashSet<>();
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
    return new StatusFacts(figures, names, all, targets, references);
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

  /** Why a target's last run did not succeed, for a cell's title. */
  static String why(JsonObject t) {
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
}
