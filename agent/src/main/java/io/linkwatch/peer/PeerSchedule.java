package io.linkwatch.peer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Who probes whom between servers, computed alike by every agent from the sorted member list and
 * the clock: no leader, nothing exchanged but the member list.
 *
 * <p>Round {@code r} is {@code floor(epoch seconds / round length)}. Every round is a round-robin
 * (circle method) step over the members, so every pair of members meets once in {@code n - 1}
 * rounds, a cover. With an even {@code n} each member has one partner a round; with an odd {@code
 * n} the circle needs {@code n} rounds with one member sitting out of each, and the pairs of the
 * last are folded into the rounds where one of their two members sat out, so the cover still takes
 * {@code n - 1} rounds and a member has at most two partners a round. Members that share a
 * top-of-rack switch ({@code tor}) also run a circle of their own every round: the paths under one
 * switch are tested more often, as Pingmesh and R-Pingmesh do.
 *
 * <p>The round length grows until no member takes part in more than its budget of probes an hour,
 * however the pairs fall. Of a pair, the member whose host name sorts first probes and the other
 * answers. Two agents whose member lists differ (one joined, one left) compute different rounds;
 * each still gives every member at most its number of partners a round, so a member probed by both
 * plans at once answers at most twice as many probes for that round: a repeat, never a storm, and
 * no probe waits on another.
 */
public final class PeerSchedule {
  /**
   * A member: the host (as the agents know it: {@code host:port}), its top-of-rack switch and its
   * rail, where known.
   */
  public record Member(String host, String tor, String rail) {
    public Member {
      Objects.requireNonNull(host);
      tor = tor == null || tor.isBlank() ? null : tor;
      rail = rail == null || rail.isBlank() ? null : rail;
    }

    public Member(String host, String tor) {
      this(host, tor, null);
    }
  }

  /** Why a pair is probed this round: the fleet-wide circle, or the circle of one switch. */
  public enum Tier {
    FABRIC,
    TOR
  }

  /** One probe of a round: {@code prober} (the host name that sorts first) to {@code responder}. */
  public record Pair(String prober, String responder, Tier tier) {}

  private final List<Member> members;
  private final Map<String, List<String>> torGroups;
  private final long roundSeconds;

  private PeerSchedule(List<Member> members, long roundSeconds) {
    this.members = members;
    this.roundSeconds = roundSeconds;
    this.torGroups = torGroups(members);
  }

  /** The hosts under each switch that has two or more members, in the members' order. */
  private static Map<String, List<String>> torGroups(List<Member> members) {
    Map<String, List<String>> groups = new TreeMap<>();
    for (Member m : members) {
      if (m.tor() != null) {
        groups.computeIfAbsent(m.tor(), t -> new ArrayList<>()).add(m.host());
      }
    }
    groups.values().removeIf(g -> g.size() < 2);
    return groups;
  }

  /**
   * The plan for {@code members} (their order does not matter; one entry per host, the first kept),
   * rounds of at least {@code round}, and at most {@code budgetPerHour} probes a member takes part
   * in, as prober or responder, in any hour.
   */
  public static PeerSchedule of(Collection<Member> members, Duration round, int budgetPerHour) {
    if (budgetPerHour < 1) {
      throw new IllegalArgumentException("budget " + budgetPerHour + " probes an hour: below 1");
    }
    List<Member> sorted = normalized(members);
    // Probes a member takes part in per round, at most: one or two in the fabric's circle, one or
    // two in its switch's. An hour holds ceil(3600 / length) round starts at most.
    int perRound = maxPartners(sorted.size());
    for (List<String> g : torGroups(sorted).values()) {
      perRound = Math.max(perRound, maxPartners(sorted.size()) + maxPartners(g.size()));
    }
    if (perRound > budgetPerHour) {
      throw new IllegalArgumentException(
          "budget "
              + budgetPerHour
              + " probes an hour: below the "
              + perRound
              + " a member takes part in each round");
    }
    // Rounds starting in any hour: at most ceil(3600 / length), which must not pass the number
    // of rounds the budget pays for.
    long roundsAllowed = budgetPerHour / Math.max(1, perRound);
    long shortest = (3600 + roundsAllowed - 1) / roundsAllowed;
    return new PeerSchedule(sorted, Math.max(1, Math.max(round.toSeconds(), shortest)));
  }

  /** The members as every plan holds them: one per host (the first kept), sorted by host. */
  static List<Member> normalized(Collection<Member> members) {
    Map<String, Member> byHost = new TreeMap<>();
    members.forEach(m -> byHost.putIfAbsent(m.host(), m));
    return List.copyOf(byHost.values());
  }

  public List<Member> members() {
    return members;
  }

  public Duration roundLength() {
    return Duration.ofSeconds(roundSeconds);
  }

  /** Rounds in which every pair of members meets once: {@code n - 1} (none for fewer than 2). */
  public int coverRounds() {
    return Math.max(0, members.size() - 1);
  }

  /** The round that {@code t} falls in. */
  public long roundAt(Instant t) {
    return Math.floorDiv(t.getEpochSecond(), roundSeconds);
  }

  /** When round {@code round} starts. */
  public Instant start(long round) {
    return Instant.ofEpochSecond(round * roundSeconds);
  }

  /** Round {@code round}'s probes: the fabric's circle step, then each switch's. */
  public List<Pair> pairs(long round) {
    Map<String, Pair> out = new LinkedHashMap<>();
    List<String> hosts = members.stream().map(Member::host).toList();
    for (int[] p : circle(hosts.size(), round)) {
      add(out, hosts.get(p[0]), hosts.get(p[1]), Tier.FABRIC);
    }
    for (List<String> group : torGroups.values()) {
      for (int[] p : circle(group.size(), round)) {
        add(out, group.get(p[0]), group.get(p[1]), Tier.TOR);
      }
    }
    return List.copyOf(out.values());
  }

  /** The probes {@code host} takes part in during round {@code round}, as either end. */
  public List<Pair> pairsOf(String host, long round) {
    return pairs(round).stream()
        .filter(p -> p.prober().equals(host) || p.responder().equals(host))
        .toList();
  }

  private static void add(Map<String, Pair> out, String a, String b, Tier tier) {
    String prober = a.compareTo(b) < 0 ? a : b;
    String responder = prober.equals(a) ? b : a;
    // A pair the fabric's circle already has this round is not probed twice.
    out.putIfAbsent(prober + "\n" + responder, new Pair(prober, responder, tier));
  }

  /** Partners a member has at most in one round of a circle over {@code n}: 0, 1, or 2 (odd n). */
  private static int maxPartners(int n) {
    return n < 2 ? 0 : n == 2 || n % 2 == 0 ? 1 : 2;
  }

  /**
   * Step {@code round} of a round-robin over positions {@code 0..n-1}: pairs {@code {i, j}} with
   * {@code i + j} congruent to the step, modulo {@code n - 1} with position {@code n - 1} taking
   * the one left alone (even n), or modulo {@code n} with the last step's pairs folded into the
   * steps where one of their members sat out (odd n).
   */
  static List<int[]> circle(int n, long round) {
    List<int[]> pairs = new ArrayList<>();
    if (n < 2) {
      return pairs;
    }
    int rounds = n - 1;
    int r = (int) Math.floorMod(round, (long) rounds);
    if (n % 2 == 0) {
      for (int i = 0; i < n - 1; i++) {
        int j = Math.floorMod(r - i, n - 1);
        if (j == i) {
          pairs.add(new int[] {i, n - 1});
        } else if (i < j) {
          pairs.add(new int[] {i, j});
        }
      }
      return pairs;
    }
    for (int i = 0; i < n; i++) {
      int j = Math.floorMod(r - i, n);
      if (i < j) {
        pairs.add(new int[] {i, j});
      }
    }
    // The member sitting out of this step (2i = r mod n) meets its partner of step n - 1 now.
    int alone = Math.floorMod(r * ((n + 1) / 2), n);
    int partner = Math.floorMod(n - 1 - alone, n);
    // Both members of that pair sit out once; it is met at the step of the lower one only.
    if (alone < partner) {
      pairs.add(new int[] {alone, partner});
    }
    return pairs;
  }

  /**
   * Every pair that rounds {@code from} to {@code from + count - 1} probe, as "a b" with a before
   * b.
   */
  public TreeSet<String> covered(long from, int count) {
    TreeSet<String> out = new TreeSet<>();
    for (long r = from; r < from + count; r++) {
      pairs(r).forEach(p -> out.add(p.prober() + " " + p.responder()));
    }
    return out;
  }
}
