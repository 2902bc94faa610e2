package io.linkwatch.http;

import static io.linkwatch.http.StatusFormat.ago;
import static io.linkwatch.http.StatusFormat.gbps;
import static io.linkwatch.http.StatusFormat.size;
import static io.linkwatch.http.StatusFormat.string;
import static io.linkwatch.http.StatusFormat.until;

import io.linkwatch.history.SeriesId;
import io.linkwatch.http.StatusPageModel.DeviceRow;
import io.linkwatch.http.StatusPageModel.Devices;
import io.linkwatch.http.StatusPageModel.Health;
import io.linkwatch.http.StatusPageModel.HealthRow;
import io.linkwatch.http.StatusPageModel.LinkRow;
import io.linkwatch.http.StatusPageModel.Links;
import io.linkwatch.http.StatusPageModel.NicPortRow;
import io.linkwatch.http.StatusPageModel.NicPorts;
import io.linkwatch.http.StatusPageModel.PairRow;
import io.linkwatch.http.StatusPageModel.PeerCount;
import io.linkwatch.http.StatusPageModel.PeerSuspect;
import io.linkwatch.http.StatusPageModel.Peers;
import io.linkwatch.passive.LinkState;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LocalCopy;
import io.linkwatch.status.DeviceEntry;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.PeerSection;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
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
  static Devices devices(StatusDocument status, StatusFacts facts) {
    Map<Integer, DeviceEntry> activity = new TreeMap<>();
    status.devices().forEach(d -> activity.put(d.device(), d));
    TreeSet<Integer> all = new TreeSet<>(facts.names().keySet());
    all.addAll(activity.keySet());
    if (all.isEmpty()) {
      return null;
    }
    Map<Integer, TargetEntry.Figure> hbm = new TreeMap<>();
    Map<Integer, Long> memory = new TreeMap<>();
    for (TargetEntry.Figure f : facts.figures()) {
      if (f.measurement() instanceof LocalCopy b) {
        hbm.put(b.device(), f);
      } else if (f.measurement() instanceof DeviceInfo i) {
        memory.put(i.device(), i.memoryTotalBytes());
      }
    }
    List<DeviceRow> rows = new ArrayList<>();
    for (int d : all) {
      DeviceEntry a = activity.get(d);
      TargetEntry.Figure local = hbm.get(d);
      String localCopy = null;
      String localSeries = null;
      if (local != null) {
        LocalCopy b = (LocalCopy) local.measurement();
        localCopy = gbps(b.bytesPerSecond()) + " GB/s";
        localSeries = SeriesId.id(local.probe(), local.target(), "bandwidth", b.sizeBytes());
      }
      rows.add(
          new DeviceRow(
              d,
              facts.names().getOrDefault(d, ""),
              memory.containsKey(d) ? size(memory.get(d)) : "",
              localCopy,
              localSeries,
              a != null,
              a != null && a.busy(),
              a == null ? "" : String.join("; ", a.reasons()),
              a == null ? null : a.source() + " " + (a.checked() == null ? "" : a.checked())));
    }
    return new Devices(rows);
  }

  /** One row of the links table: a link, or a PCIe hop shown as one. */
  private record Row(
      String link,
      String type,
      String peer,
      Boolean up,
      Integer lanes,
      Integer max,
      Map<String, Long> errors) {
    static Row of(LinkState l) {
      return new Row(
          l.link(),
          l.linkType(),
          l.peer(),
          l.up(),
          l.lanes(),
          l.lanesMax(),
          new TreeMap<>(l.errors()));
    }

    static Row of(PassiveSection.PcieLink hop) {
      return new Row(
          "PCIe " + (hop.role() == null ? "" : hop.role().label()),
          hop.pciAddress(),
          null,
          null,
          hop.width(),
          hop.maxWidth(),
          Map.of());
    }
  }

  /** A row per link and PCIe hop of every device the passive reader read; null without one. */
  static Links links(StatusDocument status) {
    PassiveSection passive = status.passive();
    if (passive == null || passive.devices().isEmpty()) {
      return null;
    }
    List<LinkRow> out = new ArrayList<>();
    for (PassiveSection.Device d : passive.devices()) {
      List<Row> rows = new ArrayList<>();
      d.links().forEach(l -> rows.add(Row.of(l)));
      d.pcie().forEach(h -> rows.add(Row.of(h)));
      String read = d.result() == null ? "" : d.result().label();
      if (d.failedCall() != null) {
        read += " in " + d.failedCall();
      }
      if (d.skippedBecause() != null) {
        read += " (" + d.skippedBecause() + ")";
      }
      if (rows.isEmpty()) {
        rows.add(new Row(null, null, null, null, null, null, Map.of()));
      }
      for (Row l : rows) {
        boolean narrow = l.lanes() != null && l.max() != null && l.lanes() < l.max();
        long sum = l.errors().values().stream().mapToLong(Long::longValue).sum();
        List<String> parts = new ArrayList<>();
        l.errors().forEach((k, v) -> parts.add(k + " " + v));
        out.add(
            new LinkRow(
                d.source() == null ? "" : d.source().id(),
                String.valueOf(d.device()),
                read,
                string(l.link()),
                string(l.type()),
                string(l.peer()),
                Boolean.FALSE.equals(l.up()),
                l.up() == null ? "" : "up",
                narrow,
                l.lanes() == null ? "" : l.lanes() + (l.max() == null ? "" : " / " + l.max()),
                sum > 0,
                String.join(", ", parts)));
      }
    }
    return new Links(out);
  }

  /** A row per port to other servers the passive reader found; null without one. */
  static NicPorts nicPorts(StatusDocument status) {
    PassiveSection passive = status.passive();
    if (passive == null || passive.nicPorts().isEmpty()) {
      return null;
    }
    List<NicPortRow> rows = new ArrayList<>();
    for (PassiveSection.NicEntry n : passive.nicPorts()) {
      List<String> parts = n.countedErrors();
      rows.add(
          new NicPortRow(
              n.nic(),
              n.port(),
              string(n.linkLayer()),
              n.up() || n.wasUp() ? string(n.state()) : string(n.state()) + " (not up since start)",
              !n.up() && n.wasUp(),
              string(n.physState()),
              n.speedBitsPerSecond() == null
                  ? ""
                  : String.format(Locale.ROOT, "%.0f Gb/s", n.speedBitsPerSecond() / 1e9),
              string(n.netdev()),
              !parts.isEmpty(),
              parts.isEmpty() ? "none" : String.join(", ", parts)));
    }
    return new NicPorts(rows);
  }

  /** The probes between servers as this host sees them; null without a {@code peers:} source. */
  static Peers peers(StatusDocument status, Instant now) {
    PeerSection p = status.peers();
    if (p == null) {
      return null;
    }
    String summary =
        p.members()
            + " members from "
            + p.source()
            + (p.self() == null
                ? "; this host is not among them, so it probes nobody"
                : "; this host is " + p.self())
            + (p.roundSeconds() == null
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; a round every %.0f s, every pair met within %.0f s",
                    p.roundSeconds(),
                    p.coverSeconds()))
            + npuSummary(p);
    List<PeerCount> counts = new ArrayList<>();
    p.paths()
        .forEach(
            (verdict, n) ->
                counts.add(
                    new PeerCount(verdict, n, n == 0 ? "" : verdict.equals("ok") ? "ok" : "low")));
    List<PeerSuspect> suspects = new ArrayList<>();
    for (PeerSection.Suspect x : p.suspects()) {
      String kind =
          switch (x.kind()) {
            case "self" -> "this host";
            case "tor" -> "switch";
            default -> "peer";
          };
      suspects.add(new PeerSuspect(kind, x.host(), string(x.nic()), x.verdict(), x.evidence()));
    }
    List<PairRow> pairs = new ArrayList<>();
    for (io.linkwatch.status.PairEntry e : p.pairs()) {
      String css = e.result().equals("success") ? "ok" : Boolean.FALSE.equals(e.ok()) ? "low" : "";
      String figures =
          e.figures().stream()
              .map(io.linkwatch.probe.result.Measurement::summary)
              .collect(java.util.stream.Collectors.joining("; "));
      if (!figures.isEmpty() && !e.result().equals("success")) {
        figures = "measured " + ago(e.figuresAt(), now) + ": " + figures;
      }
      pairs.add(
          new PairRow(
              e.probe(), e.dstHost(), e.result(), css, ago(e.lastRun(), now), e.error(), figures));
    }
    return new Peers(
        summary,
        counts,
        suspects,
        !suspects.isEmpty(),
        p.membershipError(),
        pairs,
        !pairs.isEmpty());
  }

  /** {@code ; NPU ports: 10 paths ok, 2 failing}, and why they cannot ping; empty without. */
  private static String npuSummary(PeerSection p) {
    if (p.npuPaths().isEmpty()) {
      return "";
    }
    int ok = p.npuPaths().getOrDefault("ok", 0);
    int all = p.npuPaths().values().stream().mapToInt(Integer::intValue).sum();
    return "; NPU ports: "
        + ok
        + " paths ok"
        + (all > ok ? ", " + (all - ok) + " failing" : "")
        + (p.npuError() == null ? "" : " (cannot ping: " + p.npuError() + ")");
  }

  /** Every target's last run and next one, and the probes that do not apply here. */
  static Health health(StatusDocument status, Instant now) {
    List<HealthRow> rows = new ArrayList<>();
    for (TargetEntry t : status.targets()) {
      String call = t.failedCall();
      String waiting =
          t.waiting()
              ? "since " + ago(t.waitingForIdleSince(), now) + ": " + t.waitingBecause()
              : null;
      rows.add(
          new HealthRow(
              t.probe(),
              t.target(),
              t.succeeded(),
              t.resultLabel(),
              ago(t.lastRun(), now),
              String.format(Locale.ROOT, "%.2f s", t.durationSeconds()),
              (call == null ? "" : call + ": ") + t.error(),
              waiting,
              until(t.nextRun(), now)));
    }
    List<String> parts = new ArrayList<>();
    status.notApplicable().forEach((probe, why) -> parts.add(probe + " (" + why + ")"));
    return new Health(rows, parts.isEmpty() ? null : String.join("; ", parts));
  }
}
