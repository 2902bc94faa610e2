package io.linkwatch.peer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Who is to blame, from this host's own probes of its peers: one latest result per peer over the
 * last cover period, second passes and rechecks included.
 *
 * <ul>
 *   <li><b>Itself</b> when most of its latest {@value #SELF_EVIDENCE} results, and at least two,
 *       found the path failing (lossy or unreachable): the fault is on its side of every path (its
 *       NIC, cable, optic or uplink), and then it blames no peer. Only recent results count: in a
 *       large fleet a cover lasts hours, and a host must be named within rounds of its fault and
 *       cleared within rounds of its repair.
 *   <li><b>A peer</b> whose failed path was followed by a second pass in which another member
 *       answered: this host's side worked at that moment, so the fault lies at that peer or on the
 *       path to it. A peer whose host refused the connection (its agent is down) or answered TCP
 *       but no echo (UDP blocked on its way) is named without one: the path itself worked.
 *   <li><b>A switch</b> (a top-of-rack, as the member list's {@code tor} labels name them) when
 *       every path to its members failed, at least two of them, while a path to a member under
 *       another switch passed: the fault is the switch or its uplink, not each host under it. Those
 *       members are then named once, as the switch, and their failures are no evidence against this
 *       host's own side. This host's own switch is never named so: from here its failure reads as
 *       this host's own side (the fleet's rules tell the two apart).
 *   <li><b>Nobody</b> for a failure whose second pass reached nobody (this host's own fault,
 *       perhaps mending now) or that had none (the budget was spent, or the failure came from a
 *       second pass itself).
 * </ul>
 *
 * A stopped agent or blocked UDP never counts against this host's own side. One host naming a peer
 * is a single path's evidence; the fleet's rules name a host when several sources name it.
 */
public final class PeerFindings {
  private PeerFindings() {}

  public enum Kind {
    /** This host's own side of its paths. */
    SELF,
    /** A peer, or the path to it. */
    PEER,
    /** A switch every path through which failed: the members under it named once, as it. */
    TOR;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * @param host the member named, or for {@link Kind#TOR} the switch's name
   * @param nic its interface, where known: this host's towards its peers, or the peer's as its last
   *     reply named it (none when no echo came back, and none for a switch)
   * @param verdict the worst verdict among the evidence (for SELF and TOR) or the peer's last
   *     verdict
   * @param bad paths that failed among {@code paths}: for TOR, the paths to its members
   * @param paths paths in the evidence: for TOR, those that passed elsewhere are {@code paths -
   *     bad}
   */
  public record Suspect(
      String host, String nic, Kind kind, PathVerdict verdict, int bad, int paths) {
    public String evidence() {
      return switch (kind) {
        case SELF -> bad + " of " + paths + " peers failed (" + verdict.id() + ")";
        case PEER -> verdict.id() + " from here while " + (paths - bad) + " other peers answered";
        case TOR ->
            "all "
                + bad
                + " peers under it failed ("
                + verdict.id()
                + ") while "
                + (paths - bad)
                + " peers elsewhere answered";
      };
    }
  }

  /** How many of the latest results judge this host's own side. */
  public static final int SELF_EVIDENCE = 5;

  /** As {@link #judge(String, String, String, Collection, Function)} with no switch known. */
  public static List<Suspect> judge(String self, String selfNic, Collection<PathResult> latest) {
    return judge(self, selfNic, null, latest, peer -> null);
  }

  /**
   * @param selfTor this host's switch, null where unknown
   * @param torOf each peer's switch, null where unknown
   */
  public static List<Suspect> judge(
      String self,
      String selfNic,
      String selfTor,
      Collection<PathResult> all,
      Function<String, String> torOf) {
    List<Suspect> out = new ArrayList<>();
    Set<String> badTors = failedSwitches(selfTor, all, torOf);
    List<PathResult> latest = new ArrayList<>();
    for (PathResult r : all) {
      String tor = torOf.apply(r.peer());
      if (tor == null || !badTors.contains(tor)) {
        latest.add(r);
      }
    }
    List<PathResult> recent =
        latest.stream()
            .sorted(Comparator.comparing(PathResult::at).reversed())
            .limit(SELF_EVIDENCE)
            .toList();
    List<PathResult> failing = recent.stream().filter(r -> r.verdict().pathFails()).toList();
    if (failing.size() >= 2 && failing.size() * 2 > recent.size()) {
      PathVerdict worst =
          failing.stream().map(PathResult::verdict).max(Comparator.naturalOrder()).orElseThrow();
      // This host's own side fails: no switch or peer is blamed from here.
      out.add(new Suspect(self, selfNic, Kind.SELF, worst, failing.size(), recent.size()));
      return out;
    }
    for (String tor : badTors) {
      List<PathResult> under = all.stream().filter(r -> tor.equals(torOf.apply(r.peer()))).toList();
      PathVerdict worst =
          under.stream().map(PathResult::verdict).max(Comparator.naturalOrder()).orElseThrow();
      long answered = latest.stream().filter(PathResult::ok).count();
      out.add(new Suspect(tor, null, Kind.TOR, worst, under.size(), under.size() + (int) answered));
    }
    long bad = latest.stream().filter(r -> r.verdict().blames()).count();
    for (PathResult r : latest) {
      boolean settled = r.verdict().pathFails() ? r.othersAnswered() > 0 : r.verdict().blames();
      if (settled) {
        out.add(
            new Suspect(r.peer(), r.dstNic(), Kind.PEER, r.verdict(), (int) bad, latest.size()));
      }
    }
    return out;
  }

  /**
   * The switches other than this host's own with at least two members in the evidence, every path
   * to them failing, while some path to a member elsewhere passed (so this host's own side works).
   */
  private static Set<String> failedSwitches(
      String selfTor, Collection<PathResult> all, Function<String, String> torOf) {
    Map<String, List<PathResult>> byTor = new TreeMap<>();
    for (PathResult r : all) {
      String tor = torOf.apply(r.peer());
      if (tor != null && !tor.equals(selfTor)) {
        byTor.computeIfAbsent(tor, t -> new ArrayList<>()).add(r);
      }
    }
    Set<String> out = new TreeSet<>();
    byTor.forEach(
        (tor, under) -> {
          boolean allFail =
              under.size() >= 2 && under.stream().allMatch(r -> r.verdict().pathFails());
          boolean passedElsewhere =
              all.stream().anyMatch(r -> r.ok() && !tor.equals(torOf.apply(r.peer())));
          if (allFail && passedElsewhere) {
            out.add(tor);
          }
        });
    return out;
  }
}
