package io.linkwatch.verdict;

import io.linkwatch.util.Gbps;
import io.linkwatch.verdict.Verdict.Finding;
import io.linkwatch.verdict.Verdict.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Names the culprit behind a round's low device-pair copies, where one cause explains several
 * figures: a device whose every pair is low both ways ({@code device 3}), a link low in both
 * directions ({@code link 0<->3}), or every pair low ({@code host}: host-wide, not a device). A
 * single low figure needs no naming: its own finding already says the link and the direction.
 *
 * <p>Each figure is compared with its reference: the expected table's row for the product, link and
 * size where there is one (its warning threshold), else the median of the same round's figures over
 * the same link type and size, the host's own peers. Against its peers a figure is low under {@link
 * ExpectedFigures#FAIL_SHARE} of the median, and the finding only warns: the product's figure is
 * not known. Every pair low cannot be seen against the peers, only against the table. What to do
 * about each is the actions table's ({@link FindingActions}), not this class's. The method is the
 * row and column scores of the fault-attribution practice: a row and a column all low is the
 * device, a symmetric pair the link, the whole matrix the host.
 */
final class Attribution {
  /** The codes of the culprits named here. */
  static final java.util.Set<String> CODES =
      java.util.Set.of(
          "LW-DEVICE-SLOW",
          "LW-LINK-SLOW",
          "LW-LINK-ONEWAY",
          "LW-PCIE-SLOW",
          "LW-NUMA-SLOW",
          "LW-HOST-WIDE");

  /** Figures of a link type and size needed before their median is a reference. */
  static final int MIN_PEERS = 4;

  private Attribution() {}

  /**
   * One directed copy figure of a round.
   *
   * @param reference the table row's floor in base units, NaN when the table has no row
   * @param state the table row's judgement; null without a row (judged against the peers here)
   * @param at when the run that measured it ended; null when not known (a check's own run)
   */
  record Copy(
      int src,
      int dst,
      String over,
      long sizeBytes,
      double value,
      double reference,
      State state,
      Instant at) {
    String line() {
      return String.format(Locale.ROOT, "%d->%d %s", src, dst, Gbps.withUnit(value));
    }
  }

  /**
   * One copy between host memory and a device of a round, from memory on a verified NUMA node.
   *
   * @param over the memory and direction, e.g. {@code pinned h2d}
   */
  record HostCopy(
      int device,
      int node,
      String over,
      long sizeBytes,
      double value,
      double reference,
      State state,
      Instant at) {
    /** As a {@link Copy} from the node to the device, to be judged as the device pairs are. */
    Copy asCopy() {
      return new Copy(node, device, over, sizeBytes, value, reference, state, at);
    }
  }

  /**
   * The round a culprit of {@code copies} is named from: when the newest of their runs ended; null
   * when a figure's time is not known (a check's own run, which names what it sees at once).
   */
  private static Instant roundOf(List<Judged> copies) {
    Instant newest = null;
    for (Judged j : copies) {
      if (j.copy().at() == null) {
        return null;
      }
      if (newest == null || j.copy().at().isAfter(newest)) {
        newest = j.copy().at();
      }
    }
    return newest;
  }

  /**
   * The NUMA nodes whose host transfers are low to every device while another node's are fine to
   * the same devices: the node's memory or its socket's link, not the devices ({@code numa_node
   * N}). Each figure is judged as a device pair's is (its row, else its peers of the same memory,
   * direction and size); with one node, or every node low, nothing is named.
   */
  static List<Finding> numaCulprits(List<HostCopy> copies) {
    Map<String, List<HostCopy>> rounds = new TreeMap<>();
    copies.forEach(
        c -> rounds.computeIfAbsent(c.over() + " " + c.sizeBytes(), k -> new ArrayList<>()).add(c));
    Map<String, Finding> bySubject = new LinkedHashMap<>();
    for (List<HostCopy> round : rounds.values()) {
      List<Judged> all = judged(round.stream().map(HostCopy::asCopy).toList());
      Map<Integer, List<Judged>> byNode = new TreeMap<>();
      all.forEach(j -> byNode.computeIfAbsent(j.copy().src(), n -> new ArrayList<>()).add(j));
      if (byNode.size() < 2) {
        continue;
      }
      byNode.forEach(
          (node, from) -> {
            boolean allLow = from.size() >= 2 && from.stream().allMatch(Judged::low);
            // Every one of those devices fine from some other node: not the devices.
            boolean devicesFine =
                from.stream()
                    .allMatch(
                        j ->
                            all.stream()
                                .anyMatch(
                                    o ->
                                        o.copy().dst() == j.copy().dst()
                                            && o.copy().src() != node
                                            && !o.low()));
            if (allLow && devicesFine) {
              Finding f =
                  new Finding(
                          "LW-NUMA-SLOW",
                          worst(from),
                          "numa_node " + node,
                          String.format(
                                  Locale.ROOT,
                                  "%s from node %d low to all %d devices (%s), fine from other nodes",
                                  from.get(0).copy().over(),
                                  node,
                                  from.size(),
                                  percent(from))
                              + hostEvidence(from))
                      .inRound(roundOf(all));
              bySubject.merge(f.subject(), f, (a, b) -> b.state().compareTo(a.state()) > 0 ? b : a);
            }
          });
    }
    List<Finding> out = new ArrayList<>(bySubject.values());
    out.sort(Comparator.comparing(Finding::state).reversed());
    return out;
  }

  /** The lowest two host copies, e.g. {@code ; dev3 from node 1 12.0 GB/s, ...}. */
  private static String hostEvidence(List<Judged> js) {
    return "; "
        + js.stream()
            .sorted(Comparator.comparingDouble(Judged::ratio))
            .limit(2)
            .map(
                j ->
                    String.format(
                        Locale.ROOT,
                        "dev%d from node %d %s",
                        j.copy().dst(),
                        j.copy().src(),
                        Gbps.withUnit(j.copy().value())))
            .collect(Collectors.joining(", "))
        + (js.size() > 2 ? ", …" : "");
  }

  /** A copy with its reference and state settled. */
  private record Judged(Copy copy, double reference, State state, boolean byPeers) {
    boolean low() {
      return state != State.OK;
    }

    double ratio() {
      return copy.value() / reference;
    }
  }

  /** The findings that name a culprit, worst first, at most one per subject; no PCIe tree. */
  static List<Finding> culprits(List<Copy> copies) {
    return culprits(copies, Map.of());
  }

  /**
   * The findings that name a culprit, worst first, at most one per subject.
   *
   * @param pcie the devices under each PCIe switch port and root port of the host's tree (its
   *     address first), nearest the devices first; empty when the tree was not read
   */
  static List<Finding> culprits(List<Copy> copies, Map<String, Set<Integer>> pcie) {
    Map<Long, List<Copy>> bySize = new TreeMap<>(Comparator.reverseOrder());
    copies.forEach(c -> bySize.computeIfAbsent(c.sizeBytes(), k -> new ArrayList<>()).add(c));
    Map<String, Finding> bySubject = new LinkedHashMap<>();
    for (List<Copy> round : bySize.values()) {
      List<Judged> judgedRound = judged(round);
      Instant at = roundOf(judgedRound);
      for (Finding pattern : ofOneSize(judgedRound, pcie)) {
        Finding f = pattern.inRound(at);
        bySubject.merge(f.subject(), f, (a, b) -> b.state().compareTo(a.state()) > 0 ? b : a);
      }
    }
    List<Finding> out = new ArrayList<>(bySubject.values());
    out.sort(Comparator.comparing(Finding::state).reversed());
    return out;
  }

  /** Each copy against its row, or against the median of its peers of the same link type. */
  private static List<Judged> judged(List<Copy> round) {
    Map<String, List<Copy>> byLink =
        round.stream()
            .collect(Collectors.groupingBy(Copy::over, TreeMap::new, Collectors.toList()));
    List<Judged> out = new ArrayList<>();
    for (List<Copy> group : byLink.values()) {
      double median =
          median(group.stream().filter(c -> c.state() == null).mapToDouble(Copy::value).toArray());
      long rowless = group.stream().filter(c -> c.state() == null).count();
      for (Copy c : group) {
        if (c.state() != null) {
          out.add(new Judged(c, c.reference(), c.state(), false));
        } else if (rowless >= MIN_PEERS) {
          State s = c.value() < ExpectedFigures.FAIL_SHARE * median ? State.WARN : State.OK;
          out.add(new Judged(c, median, s, true));
        }
      }
    }
    return out;
  }

  private static List<Finding> ofOneSize(List<Judged> measured, Map<String, Set<Integer>> pcie) {
    List<Judged> low = measured.stream().filter(Judged::low).toList();
    if (low.isEmpty()) {
      return List.of();
    }
    List<Finding> out = new ArrayList<>();
    List<Judged> all = measured;
    if (all.size() >= 3 && low.size() == all.size()) {
      out.add(
          new Finding(
              "LW-HOST-WIDE",
              worst(low),
              "host",
              String.format(
                      Locale.ROOT,
                      "all %d pairs low (median %s), not one device or link",
                      all.size(),
                      percent(low))
                  + evidence(low)));
      return out;
    }
    Set<Integer> devices = new TreeSet<>();
    all.forEach(
        j -> {
          devices.add(j.copy().src());
          devices.add(j.copy().dst());
        });
    Optional<Set<Integer>> group = group(all, devices);
    if (group.isPresent()) {
      Set<Integer> g = group.get();
      List<Judged> crossing = all.stream().filter(j -> crosses(j, g)).toList();
      out.add(sharedPath(g, devices, crossing, pcie));
      // The pairs the group explains name nothing more: each of them is its evidence.
      all = all.stream().filter(j -> !crosses(j, g)).toList();
      low = all.stream().filter(Judged::low).toList();
    }
    List<Judged> judged = all;
    Set<Integer> culprits = new TreeSet<>();
    for (int d : devices) {
      List<Judged> touching = judged.stream().filter(j -> touches(j, d)).toList();
      boolean allLow = touching.stream().allMatch(Judged::low);
      boolean bothWays =
          touching.stream().anyMatch(j -> j.copy().src() == d)
              && touching.stream().anyMatch(j -> j.copy().dst() == d);
      // Some pair without the device is fine: else the host, not the device, is what is slow.
      boolean othersFine = judged.stream().anyMatch(j -> !touches(j, d) && !j.low());
      if (touching.size() >= 2 && allLow && bothWays && othersFine) {
        culprits.add(d);
        out.add(
            new Finding(
                    "LW-DEVICE-SLOW",
                    worst(touching),
                    "device " + d,
                    String.format(
                            Locale.ROOT,
                            "all %d of its pairs low, both ways (%s)",
                            touching.size(),
                            percent(touching))
                        + evidence(touching))
                .about(Subsystem.LINKS, d));
      }
    }
    Map<List<Integer>, List<Judged>> links =
        new TreeMap<>(
            Comparator.<List<Integer>>comparingInt(l -> l.get(0)).thenComparingInt(l -> l.get(1)));
    for (Judged j : low) {
      int a = Math.min(j.copy().src(), j.copy().dst());
      int b = Math.max(j.copy().src(), j.copy().dst());
      if (!culprits.contains(a) && !culprits.contains(b)) {
        links.computeIfAbsent(List.of(a, b), k -> new ArrayList<>()).add(j);
      }
    }
    links.forEach(
        (pair, both) -> {
          // Only where each device has another pair that is fine: with no other pair (two
          // devices, one link) the link, either device and the host cannot be told apart.
          boolean elsewhereFine =
              fineElsewhere(judged, pair.get(0), pair.get(1))
                  && fineElsewhere(judged, pair.get(1), pair.get(0));
          if (both.size() == 2 && elsewhereFine) {
            out.add(
                new Finding(
                        "LW-LINK-SLOW",
                        worst(both),
                        "link " + pair.get(0) + "<->" + pair.get(1),
                        "both directions low ("
                            + percent(both)
                            + "), the devices' other pairs fine"
                            + evidence(both))
                    .about(Subsystem.LINKS, pair.get(0), pair.get(1)));
          } else if (both.size() == 1 && elsewhereFine && reverseFine(judged, both.get(0))) {
            // One direction only: a lane, a retimer or one side's transmitter, not the devices.
            Copy c = both.get(0).copy();
            out.add(
                new Finding(
                        "LW-LINK-ONEWAY",
                        worst(both),
                        "link " + c.src() + "->" + c.dst(),
                        "one direction low ("
                            + percent(both)
                            + "), "
                            + c.dst()
                            + "->"
                            + c.src()
                            + " and the devices' other pairs fine"
                            + evidence(both))
                    .about(Subsystem.LINKS, pair.get(0), pair.get(1)));
          }
        });
    return out;
  }

  /** Whether the reverse of {@code j}'s copy was measured in the round and is fine. */
  private static boolean reverseFine(List<Judged> all, Judged j) {
    return all.stream()
        .anyMatch(
            r -> r.copy().src() == j.copy().dst() && r.copy().dst() == j.copy().src() && !r.low());
  }

  /**
   * Two or more devices fine among themselves and low, both ways, to every device outside them,
   * while the devices outside are fine among themselves: what they share is slow (their PCIe switch
   * or its uplink), not any one of them or of their links. The devices split by the fine pairs into
   * exactly two sets, and the group is the smaller; of two sets of one size neither is the group:
   * the path between them is what is slow.
   */
  private static Optional<Set<Integer>> group(List<Judged> all, Set<Integer> devices) {
    List<Set<Integer>> parts = new ArrayList<>();
    for (int d : devices) {
      Set<Integer> part = new TreeSet<>(Set.of(d));
      parts.removeIf(
          p -> {
            boolean joined =
                p.stream()
                    .anyMatch(
                        e ->
                            all.stream().anyMatch(j -> !j.low() && touches(j, d) && touches(j, e)));
            if (joined) {
              part.addAll(p);
            }
            return joined;
          });
      parts.add(part);
    }
    if (parts.size() != 2) {
      return Optional.empty();
    }
    Set<Integer> g = parts.get(0).size() <= parts.get(1).size() ? parts.get(0) : parts.get(1);
    List<Judged> crossing = all.stream().filter(j -> crosses(j, g)).toList();
    boolean bothWays =
        crossing.stream().anyMatch(j -> g.contains(j.copy().src()))
            && crossing.stream().anyMatch(j -> g.contains(j.copy().dst()));
    boolean apartFine = all.stream().filter(j -> !crosses(j, g)).noneMatch(Judged::low);
    if (g.size() < 2 || !bothWays || !crossing.stream().allMatch(Judged::low) || !apartFine) {
      return Optional.empty();
    }
    return Optional.of(g);
  }

  /** Whether one end of {@code j}'s copy is in {@code group} and the other is not. */
  private static boolean crosses(Judged j, Set<Integer> group) {
    return group.contains(j.copy().src()) != group.contains(j.copy().dst());
  }

  /**
   * The finding of a group's shared path: the PCIe switch port or root port whose devices are the
   * group, where the tree was read, else the devices themselves; for two halves of one size, the
   * path between them.
   */
  private static Finding sharedPath(
      Set<Integer> group,
      Set<Integer> devices,
      List<Judged> crossing,
      Map<String, Set<Integer>> pcie) {
    Set<Integer> others = new TreeSet<>(devices);
    others.removeAll(group);
    String mine = list(group);
    if (others.size() == group.size()) {
      return new Finding(
              "LW-PCIE-SLOW",
              worst(crossing),
              "between devices " + mine + " and " + list(others),
              String.format(
                      Locale.ROOT,
                      "each half fine within itself, all %d pairs across low, both ways (%s): the"
                          + " path between them (the CPUs' link, or the switch both halves hang off)",
                      crossing.size(),
                      percent(crossing))
                  + evidence(crossing))
          .about(Subsystem.PCIE, devices.toArray(Integer[]::new));
    }
    Optional<String> hop =
        pcie.entrySet().stream()
            .filter(e -> e.getValue().equals(group))
            .map(Map.Entry::getKey)
            .findFirst();
    String detail =
        String.format(
                Locale.ROOT,
                "devices %s fine among themselves, all %d of their pairs with the others low, both"
                    + " ways (%s)",
                mine,
                crossing.size(),
                percent(crossing))
            + (hop.isPresent()
                ? ": the switch above them"
                : ": a path they share (no PCIe switch read has exactly them)")
            + evidence(crossing);
    return new Finding(
            "LW-PCIE-SLOW",
            worst(crossing),
            hop.map(a -> "pcie " + a).orElse("devices " + mine),
            detail)
        .about(Subsystem.PCIE, group.toArray(Integer[]::new));
  }

  /** E.g. {@code 2, 3}. */
  private static String list(Set<Integer> devices) {
    return devices.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }

  /** Whether some pair of {@code device} that does not involve {@code other} is fine. */
  private static boolean fineElsewhere(List<Judged> all, int device, int other) {
    return all.stream().anyMatch(j -> touches(j, device) && !touches(j, other) && !j.low());
  }

  private static boolean touches(Judged j, int device) {
    return j.copy().src() == device || j.copy().dst() == device;
  }

  private static State worst(List<Judged> js) {
    return js.stream().map(Judged::state).max(Comparator.naturalOrder()).orElse(State.OK);
  }

  /** E.g. {@code 63 % of the floor} or {@code 50 % of its peers' median}. */
  private static String percent(List<Judged> js) {
    double ratio = median(js.stream().mapToDouble(Judged::ratio).toArray());
    boolean peers = js.stream().allMatch(Judged::byPeers);
    return String.format(
        Locale.ROOT, "%.0f %% of %s", 100 * ratio, peers ? "its peers' median" : "the floor");
  }

  /** The lowest two figures, e.g. {@code ; 3->5 28.0 GB/s, 5->3 28.1 GB/s}. */
  private static String evidence(List<Judged> js) {
    return "; "
        + js.stream()
            .sorted(Comparator.comparingDouble(Judged::ratio))
            .limit(2)
            .map(j -> j.copy().line())
            .collect(Collectors.joining(", "))
        + (js.size() > 2 ? ", …" : "");
  }

  private static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
