package io.linkwatch.status;

import io.linkwatch.peer.PathResult;
import io.linkwatch.peer.PathVerdict;
import io.linkwatch.peer.PeerFindings;
import io.linkwatch.peer.PeerSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The probes between servers as the status document carries them: where the members came from, this
 * host among them, its peers by verdict over the last cover period, and whom its evidence names
 * ({@code docs/peers.md}).
 *
 * @param source {@code static}, {@code http_sd}, {@code slurm} or {@code kubernetes}
 * @param members members known
 * @param self this host's member name; null when it is not a member (it then probes nobody)
 * @param roundSeconds a round's length; null without a plan
 * @param coverSeconds a cover's length; null without a plan
 * @param paths peers by the verdict of their latest probe within the cover period, every verdict
 * @param suspects whom this host's evidence names
 * @param membershipError why the last membership read failed; null when it did not
 * @param pairs the last two-host run of each probe with each partner this host probes ({@code
 *     peers.collective}); empty without it
 * @param npuPaths the NPU ports' paths by the verdict of their latest ping within the cover period
 *     ({@code ok}, {@code lossy}, {@code unreachable}); empty where this host pings from none
 * @param npuError why this host's NPU ports could not ping when they last tried; null when they
 *     could
 */
public record PeerSection(
    String source,
    int members,
    String self,
    Double roundSeconds,
    Double coverSeconds,
    Map<String, Integer> paths,
    List<Suspect> suspects,
    String membershipError,
    List<PairEntry> pairs,
    Map<String, Integer> npuPaths,
    String npuError) {

  /**
   * One member named.
   *
   * @param kind {@code self} (this host's own side), {@code peer}, or {@code tor} (a switch every
   *     path through which failed)
   * @param host the member, or for {@code tor} the switch's name
   * @param nic its interface, where known
   * @param verdict {@code lossy}, {@code unreachable} or {@code agent_down}
   * @param evidence what the naming rests on, e.g. {@code 3 of 5 peers failed (lossy)}
   */
  public record Suspect(String kind, String host, String nic, String verdict, String evidence) {}

  public PeerSection {
    paths = paths == null ? Map.of() : java.util.Collections.unmodifiableMap(paths);
    suspects = suspects == null ? List.of() : List.copyOf(suspects);
    pairs = pairs == null ? List.of() : List.copyOf(pairs);
    npuPaths = npuPaths == null ? Map.of() : java.util.Collections.unmodifiableMap(npuPaths);
  }

  public static PeerSection of(PeerSnapshot s, List<PairEntry> pairs) {
    Map<String, Integer> paths = new LinkedHashMap<>();
    for (PathVerdict v : PathVerdict.values()) {
      paths.put(v.id(), 0);
    }
    for (PathResult r : s.window()) {
      paths.merge(r.verdict().id(), 1, Integer::sum);
    }
    Map<String, Integer> npuPaths = new LinkedHashMap<>();
    if (!s.npu().ports().isEmpty() || s.npu().error() != null) {
      // An NPU port's ping has no TCP connect: only these three verdicts.
      for (PathVerdict v : List.of(PathVerdict.OK, PathVerdict.LOSSY, PathVerdict.UNREACHABLE)) {
        npuPaths.put(v.id(), 0);
      }
      for (PathResult r : s.npu().window()) {
        npuPaths.merge(r.verdict().id(), 1, Integer::sum);
      }
    }
    List<Suspect> suspects = new ArrayList<>();
    for (PeerFindings.Suspect x : s.suspects()) {
      suspects.add(new Suspect(x.kind().id(), x.host(), x.nic(), x.verdict().id(), x.evidence()));
    }
    return new PeerSection(
        s.source(),
        s.members().size(),
        s.self() == null ? null : s.self().host(),
        s.round() == null ? null : s.round().toMillis() / 1e3,
        s.cover() == null ? null : s.cover().toMillis() / 1e3,
        paths,
        suspects,
        s.membershipError(),
        pairs,
        npuPaths,
        s.npu().error());
  }
}
