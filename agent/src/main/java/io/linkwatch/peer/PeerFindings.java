package io.linkwatch.peer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Who is to blame, from this host's own probes of its peers over the last cover period, one latest
 * result per peer (second passes included). This host names itself when most of its peers, and at
 * least two, failed: the fault is on its side of every path (its NIC, cable, optic or uplink), and
 * then it blames no peer. Otherwise it names each peer whose failed probe was followed by a second
 * pass in which another member answered: its own side worked at that moment, so the fault lies at
 * that peer or on the path to it. A failure whose second pass found nothing working (this host's
 * own fault, perhaps mending now), or that had none (the budget was spent, or the failure came from
 * a second pass itself) names nobody. One host naming a peer is a single path's evidence; the
 * fleet's rules name a host when several sources name it.
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
   * @param nic its interface, where known (this host's towards the peers, or the peer's that last
   *     answered)
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

  public static List<Suspect> judge(String self, String selfNic, Collection<PathResult> latest) {
    List<PathResult> bad = latest.stream().filter(r -> !r.ok()).toList();
    int paths = latest.size();
    List<Suspect> out = new ArrayList<>();
    if (bad.size() >= 2 && bad.size() * 2 > paths) {
      PathVerdict worst =
          bad.stream().map(PathResult::verdict).max(Comparator.naturalOrder()).orElseThrow();
      out.add(new Suspect(self, selfNic, Kind.SELF, worst, bad.size(), paths));
      return out;
    }
    for (PathResult r : bad) {
      if (r.othersAnswered() > 0) {
        out.add(new Suspect(r.peer(), r.dstNic(), Kind.PEER, r.verdict(), bad.size(), paths));
      }
    }
    return out;
  }
}
