package io.linkwatch.http;

import io.linkwatch.passive.LinkState;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import io.linkwatch.verdict.InactiveLink;
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
 * @param downLinks the device pairs (lower device first) joined by a link the vendor library reads
 *     down, with which link it is: e.g. {@code [0, 3] -> "dev0 HCCS link 3"}; links a product
 *     leaves inactive by design are not among them
 */
record StatusFacts(
    List<TargetEntry.Figure> figures,
    Map<Integer, String> names,
    List<TargetEntry> all,
    Set<String> targets,
    Map<String, HistoryReferences.Reference> references,
    Map<List<Integer>, String> downLinks) {

  static StatusFacts of(
      StatusDocument status,
      Map<String, HistoryReferences.Reference> references,
      List<InactiveLink> inactiveLinks) {
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
    Map<List<Integer>, String> down = new TreeMap<>(PAIR);
    status
        .passiveSection()
        .ifPresent(
            p -> {
              for (PassiveSection.Device d : p.devices()) {
                for (LinkState l : d.links()) {
                  Integer peer = deviceIndex(l.peer());
                  if (Boolean.FALSE.equals(l.up())
                      && peer != null
                      && InactiveLink.find(
                              inactiveLinks, names.get(d.device()), l.linkType(), l.link())
                          .isEmpty()) {
                    down.putIfAbsent(
                        List.of(Math.min(d.device(), peer), Math.max(d.device(), peer)),
                        "dev" + d.device() + " " + l.linkType() + " link " + l.link());
                  }
                }
              }
            });
    return new StatusFacts(figures, names, status.targets(), targets, references, down);
  }

  private static final java.util.Comparator<List<Integer>> PAIR =
      java.util.Comparator.<List<Integer>>comparingInt(l -> l.get(0))
          .thenComparingInt(l -> l.get(1));

  /** A link's peer as a device index; null for a switch or anything else that is not one. */
  private static Integer deviceIndex(String peer) {
    return peer != null && peer.matches("[0-9]{1,4}") ? Integer.valueOf(peer) : null;
  }

  /** The link between {@code a} and {@code b} that reads down, if one does. */
  String downLink(int a, int b) {
    return downLinks.get(List.of(Math.min(a, b), Math.max(a, b)));
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
