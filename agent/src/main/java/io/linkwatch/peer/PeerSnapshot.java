package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the peer prober knows now, for {@code /metrics} and the API.
 *
 * @param source where the members came from ({@code static}, {@code http_sd}, {@code slurm}, {@code
 *     kubernetes})
 * @param members the members as last read
 * @param self this host among them; null when it is not one (it then probes nobody)
 * @param selfNic this host's interface towards most of its peers, where known
 * @param round the round's length; null without a plan
 * @param cover how long a full cover of every pair takes; null without a plan
 * @param budgetPerHour probes this host may take part in an hour
 * @param lastHour probes it took part in over the last hour
 * @param shown the paths with a series: probed in the last two rounds, under the same switch, or
 *     failed within the cover period
 * @param window every path's latest result within the cover period, the roll-ups' evidence
 * @param suspects who this host's evidence names
 * @param probes probes by kind since the start: {@code sent}, {@code answered}, {@code
 *     second_pass}, {@code skipped_budget}
 * @param membershipError why the last membership read failed, or null
 * @param membershipFailures membership reads that failed since the start
 * @param echoesRefused echoes the responder did not answer since the start: over its rate limit
 * @param npu the pings between NPU ports; {@link NpuPaths#NONE} where this host pings from none
 */
public record PeerSnapshot(
    String source,
    List<Member> members,
    Member self,
    String selfNic,
    Duration round,
    Duration cover,
    int budgetPerHour,
    long lastHour,
    List<PathResult> shown,
    List<PathResult> window,
    List<PeerFindings.Suspect> suspects,
    Map<String, Long> probes,
    String membershipError,
    long membershipFailures,
    long echoesRefused,
    NpuPaths npu) {

  /**
   * The pings from this host's NPU ports to the same ports of its peers, kept and shown as the
   * host's paths are; their suspects are among the snapshot's, with the port as their NIC.
   *
   * @param ports this host's NPU ports, device to address, as its identity publishes them
   * @param shown the paths with a series
   * @param window every path's latest result within the cover period
   * @param pings pings by why they ran, rounds left out while the last still ran, and pings the
   *     tool could not make
   * @param error why the tool could not ping when it last tried, or null
   */
  public record NpuPaths(
      java.util.SortedMap<Integer, String> ports,
      List<PathResult> shown,
      List<PathResult> window,
      Map<String, Long> pings,
      String error) {
    public static final NpuPaths NONE =
        new NpuPaths(java.util.Collections.emptySortedMap(), List.of(), List.of(), Map.of(), null);
  }

  /** The member {@code host}, if listed. */
  public Member member(String host) {
    return members.stream().filter(m -> m.host().equals(host)).findFirst().orElse(null);
  }
}
