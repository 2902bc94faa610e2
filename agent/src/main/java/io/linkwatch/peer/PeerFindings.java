package io.linkwatch.peer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

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
    PEER;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * @param host the member named
   * @param nic its interface, where known: this host's towards its peers, or the peer's as its last
   *     reply named it (none when no echo came back)
   * @param verdict the worst verdict among the evidence (for SELF) or the peer's last verdict
   * @param bad paths that failed among {@code paths}
   * @param paths paths in the evidence
   */
  public record Suspect(
      String host, String nic, Kind kind, PathVerdict verdict, int bad, int paths) {
    public String evidence() {
      return kind == Kind.SELF
          ? bad + " of " + paths + " peers failed (" + verdict.id() + ")"
          : verdict.id() + " from here while " + (paths - bad) + " other peers answered";
    }
  }

  /** How many of the latest results judge this host's own side. */
  public static final int SELF_EVIDENCE = 5;

  public static List<Suspect> judge(String self, String selfNic, Collection<PathResult> latest) {
    List<PathResult> recent =
        latest.stream()
            .sorted(Comparator.comparing(PathResult::at).reversed())
            .limit(SELF_EVIDENCE)
            .toList();
    List<PathResult> failing = recent.stream().filter(r -> r.verdict().pathFails()).toList();
    List<Suspect> out = new ArrayList<>();
    if (failing.size() >= 2 && failing.size() * 2 > recent.size()) {
      PathVerdict worst =
          failing.stream().map(PathResult::verdict).max(Comparator.naturalOrder()).orElseThrow();
      out.add(new Suspect(self, selfNic, Kind.SELF, worst, failing.size(), recent.size()));
      return out;
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
}
