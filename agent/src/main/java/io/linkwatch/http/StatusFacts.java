package io.linkwatch.http;

import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the status document says, gathered once per render of the status page, and the history's
 * reference figure of each series.
 *
 * @param targets every {@code probe|target} the document has a run of
 */
record StatusFacts(
    List<TargetEntry.Figure> figures,
    Map<Integer, String> names,
    List<TargetEntry> all,
    Set<String> targets,
    Map<String, HistoryReferences.Reference> references) {

  static StatusFacts of(
      StatusDocument status, Map<String, HistoryReferences.Reference> references) {
    Map<Integer, String> names = new TreeMap<>();
    Set<String> targets = new HashSet<>();
    for (TargetEntry t : status.targets()) {
      targets.add(t.probe() + "|" + t.target());
    }
    List<TargetEntry.Figure> figures = status.figures();
    for (TargetEntry.Figure f : figures) {
      if (f.measurement() instanceof DeviceInfo d) {
        names.put(d.device(), d.name() == null ? "" : d.name());
      }
    }
    return new StatusFacts(figures, names, status.targets(), targets, references);
  }

  /** The probe's targets whose last run did not succeed, by target. */
  Map<String, TargetEntry> unsuccessful(String probe) {
    Map<String, TargetEntry> out = new TreeMap<>();
    for (TargetEntry t : all) {
      if (probe.equals(t.probe()) && (!t.succeeded() || t.waiting())) {
        out.put(t.target(), t);
      }
    }
    return out;
  }

  /** Why a target's last run did not succeed, for a cell's title. */
  static String why(TargetEntry t) {
    StringBuilder b = new StringBuilder(t.resultLabel());
    if (t.failedCall() != null) {
      b.append(" in ").append(t.failedCall());
    }
    if (!t.error().isEmpty()) {
      b.append(": ").append(t.error());
    }
    if (t.waiting()) {
      b.append("; waiting for idle: ").append(t.waitingBecause());
    }
    return b.toString();
  }
}
