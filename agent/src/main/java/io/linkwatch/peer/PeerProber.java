package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.peer.PeerSchedule.Pair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes this host's partners round after round, as the leaderless schedule says, and keeps each
 * path's latest result. Both members of a pair probe each other in their round, so each holds its
 * own evidence and can tell its own side's fault from the peer's. A path that fails is followed at
 * once by a second pass: this host probes two other members, those that answered most recently
 * first, so that its own side is known to work (or not) before anyone is blamed.
 *
 * <p>A member plans a quarter of its budget: each meeting costs it two probes (one sent, one
 * answered), and half the budget is kept for second passes and for peers whose view of the members
 * differs. Second passes are started only while the last hour has room.
 */
public final class PeerProber implements AutoCloseable {
  private final AtomicLong echoesRefused = new AtomicLong();
  private static final Logger log = LoggerFactory.getLogger(PeerProber.class);

  /** What a probe may spend resolving its peer's name, beyond its own echoes and connect. */
  private static final Duration RESOLVE_LIMIT = Duration.ofSeconds(5);

  /** The longest wait before a host starts its round: spreads the fleet's probes. */
  private static final Duration MAX_JITTER = Duration.ofSeconds(2);

  /** Probes of one host at once, at most: four partners a round at most, plus second passes. */
  private static final int IN_FLIGHT = 4;

  /** Why a probe runs: the schedule, a recheck of a failed peer, or a second pass. */
  private enum Kind {
    SCHEDULED("sent"),
    RECHECK("recheck"),
    SECOND_PASS("second_pass");

    final String counter;

    Kind(String counter) {
      this.counter = counter;
    }
  }

  private final PeerConfig config;
  private final Membership membership;
  private final int port;
  private final Predicate<String> isLocal;
  private final Clock clock;
  private final EchoProber prober;
  private final NpuPinger npu;
  private final ProbeMeter meter;
  private final Map<String, PathResult> latest = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> counts = new LinkedHashMap<>();
  private final AtomicLong version = new AtomicLong();
  private final ExecutorService probes;
  private final Thread rounds;
  private volatile boolean closed;
  private volatile PeerSchedule schedule;
  private volatile Member self;
  private volatile Instant lastStart;
  private List<Member> selfFor;
  private Optional<Member> selfFound = Optional.empty();
  private String selfWarning;

  PeerProber(
      PeerConfig config,
      Membership membership,
      int port,
      Predicate<String> isLocal,
      Clock clock,
      NpuPinger npu) {
    this.config = config;
    this.npu = npu;
    this.membership = membership;
    this.port = port;
    this.isLocal = isLocal;
    this.clock = clock;
    this.prober = EchoProber.of(config, clock);
    this.meter = new ProbeMeter(config.budgetPerHour(), clock);
    for (String k : List.of("sent", "answered", "recheck", "second_pass", "skipped_budget")) {
      counts.put(k, new AtomicLong());
    }
    this.probes =
        Executors.newFixedThreadPool(
            IN_FLIGHT,
            r -> {
              Thread t = new Thread(r, "peer-probe");
              t.setDaemon(true);
              return t;
            });
    this.rounds = new Thread(this::run, "peer-rounds");
    this.rounds.setDaemon(true);
  }

  /**
   * Starts probing the members {@code membership} gives, this agent listening on {@code port}, and
   * pinging from this host's NPU ports with {@code npu} (null: none).
   */
  public static PeerProber start(
      PeerConfig config, Membership membership, int port, NpuPinger npu) {
    PeerProber p =
        new PeerProber(config, membership, port, SelfMember::isLocalHost, Clock.systemUTC(), npu);
    if (npu != null) {
      npu.start();
    }
    p.rounds.start();
    return p;
  }

  /** Rounds whose results were kept: moves whenever the evidence may have changed. */
  public long version() {
    return version.get();
  }

  /** Called by the echo responder for each train it answers. */
  public void answered() {
    meter.record();
    counts.get("answered").incrementAndGet();
  }

  /** An echo the responder did not answer: over its rate limit. */
  public void refused() {
    echoesRefused.incrementAndGet();
  }

  private void run() {
    while (!closed) {
      try {
        if (!round()) {
          sleep(Duration.ofSeconds(Math.min(5, config.round().toSeconds())));
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("peer round: {}", e.toString());
        try {
          sleep(config.round());
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }

  /** Runs this host's part of the next round; false when there is nothing to run (no plan). */
  private boolean round() throws InterruptedException {
    List<Member> members = membership.current();
    Optional<Member> me = self(members);
    if (me.isEmpty() || members.size() < 2) {
      self = me.orElse(null);
      schedule = null;
      String why =
          members.isEmpty()
              ? "no members yet (" + membership.source() + ")"
              : me.isEmpty()
                  ? "this host is not among the "
                      + members.size()
                      + " members"
                      + config.self().map(s -> " as " + s).orElse(" (on port " + port + ")")
                      + "; it answers peers but probes none"
                  : "this host is the only member";
      if (!why.equals(selfWarning)) {
        log.warn("peers: {}", why);
        selfWarning = why;
      }
      return false;
    }
    selfWarning = null;
    self = me.get();
    PeerSchedule s = plan(members);
    Duration length = s.roundLength();
    Instant now = clock.instant();
    // The next round after the last one run, in this plan's rounds: a plan whose rounds are
    // longer or shorter (members joined or left) numbers them differently, so the last round is
    // kept as the time it started, never as a number.
    long r = s.roundAt(now);
    if (lastStart != null) {
      r = Math.max(r, s.roundAt(lastStart) + 1);
    }
    Instant start = s.start(r).plus(jitter(self.host(), r, length));
    if (now.isAfter(start.plus(length.dividedBy(2)))) {
      r++;
      start = s.start(r).plus(jitter(self.host(), r, length));
    }
    Duration wait = Duration.between(now, start);
    if (wait.compareTo(length) > 0) {
      // Never sleep past a round: the clock may have stepped, and the members may change.
      sleep(length);
      return true;
    }
    sleep(wait);
    lastStart = s.start(r);
    List<String> partners = new ArrayList<>();
    for (Pair p : s.pairsOf(self.host(), r)) {
      partners.add(p.prober().equals(self.host()) ? p.responder() : p.prober());
    }
    Set<String> listed = new HashSet<>();
    members.forEach(m -> listed.add(m.host()));
    latest.keySet().retainAll(listed);
    // Peers that failed when last probed are probed again every round (while the budget allows),
    // so a peer named clears within a round of its repair instead of at its next meeting.
    List<String> rechecks =
        SecondPass.rechecks(latest.values(), new HashSet<>(partners)).stream()
            .map(PathResult::peer)
            .toList();
    if (npu != null) {
      // On its own thread: the NPU ports' pings run beside the host's echoes.
      npu.meet(
          partners,
          members.stream().map(Member::host).filter(h -> !h.equals(self.host())).toList());
    }
    List<PathResult> results = new ArrayList<>(probeAll(partners, Kind.SCHEDULED));
    results.addAll(probeAll(rechecks, Kind.RECHECK));
    Set<String> probed = new HashSet<>(partners);
    probed.addAll(rechecks);
    // A failure is kept only with its second pass's outcome: until then nobody may be blamed.
    List<String> others =
        members.stream().map(Member::host).filter(h -> !h.equals(self.host())).toList();
    SecondPass.settle(results, failed -> secondPass(failed, others, probed))
        .forEach(x -> latest.put(x.peer(), x));
    version.incrementAndGet();
    return true;
  }

  /** This host among {@code members}, looked up again only when the list changes. */
  private Optional<Member> self(List<Member> members) {
    if (!members.equals(selfFor)) {
      selfFound = SelfMember.find(members, config.self(), port, isLocal);
      selfFor = members;
    }
    return selfFound;
  }

  private PeerSchedule plan(List<Member> members) {
    PeerSchedule s = schedule;
    if (s == null || !s.members().equals(PeerSchedule.normalized(members))) {
      s = PeerSchedule.of(members, config.round(), config.plannedMeetingsPerHour());
      log.info(
          "peers: {} members from {}, rounds of {} s, a cover in {} rounds",
          s.members().size(),
          membership.source(),
          s.roundLength().toSeconds(),
          s.coverRounds());
      schedule = s;
    }
    return s;
  }

  /** Up to a quarter of the round, at most 2 s, the same for a host and round on every start. */
  static Duration jitter(String host, long round, Duration length) {
    long bound = Math.min(MAX_JITTER.toMillis(), length.toMillis() / 4);
    if (bound <= 0) {
      return Duration.ZERO;
    }
    long h = (host.hashCode() * 31L + Long.hashCode(round)) * 0x9E3779B97F4A7C15L;
    return Duration.ofMillis(Math.floorMod(h >>> 16, bound));
  }

  private List<PathResult> probeAll(List<String> peers, Kind kind) throws InterruptedException {
    List<Future<PathResult>> running = new ArrayList<>();
    for (String peer : peers) {
      // The schedule's probes are the plan's; what this host adds to it stops at the budget.
      if (kind != Kind.SCHEDULED && !meter.tryTake()) {
        counts.get("skipped_budget").incrementAndGet();
        continue;
      }
      if (kind == Kind.SCHEDULED) {
        meter.record();
      }
      counts.get(kind.counter).incrementAndGet();
      running.add(probes.submit(() -> prober.probe(PeerAddress.parse(peer))));
    }
    List<PathResult> out = new ArrayList<>();
    for (int i = 0; i < running.size(); i++) {
      Future<PathResult> f = running.get(i);
      PathResult r;
      try {
        r = f.get(prober.longest().toMillis() + RESOLVE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        // A name that takes the resolver's whole timeout, or a probe stuck: the path did not
        // answer in the time a probe has, and the round goes on.
        f.cancel(true);
        r = prober.noAnswer(peers.get(i), "no result in " + prober.longest().plus(RESOLVE_LIMIT));
      } catch (java.util.concurrent.ExecutionException e) {
        log.warn("peer probe: {}", e.getCause().toString());
        continue;
      }
      out.add(kind == Kind.SECOND_PASS ? r.asSecondPass() : r);
    }
    return out;
  }

  /**
   * Probes two other members: those whose last probe passed, most recent first, then any not yet
   * probed this round, so a failure is settled even before anything has passed. Returns their
   * results, not yet kept.
   */
  private List<PathResult> secondPass(PathResult failed, List<String> others, Set<String> probed)
      throws InterruptedException {
    List<String> candidates = SecondPass.candidates(latest.values(), others, probed);
    List<String> chosen = candidates.subList(0, Math.min(2, candidates.size()));
    probed.addAll(chosen);
    log.debug("peers: {} {}; second pass through {}", failed.peer(), failed.verdict().id(), chosen);
    return probeAll(List.copyOf(chosen), Kind.SECOND_PASS);
  }

  private void sleep(Duration d) throws InterruptedException {
    long ms = d.toMillis();
    if (ms > 0) {
      Thread.sleep(ms);
    }
    if (closed) {
      throw new InterruptedException();
    }
  }

  public PeerSnapshot snapshot() {
    List<Member> members = membership.current();
    PeerSchedule s = schedule;
    Member me = self;
    Map<String, Member> listed = new java.util.HashMap<>();
    members.forEach(m -> listed.putIfAbsent(m.host(), m));
    Instant now = clock.instant();
    Duration round = s == null ? null : s.roundLength();
    Duration cover = s == null ? null : round.multipliedBy(Math.max(1, s.coverRounds()));
    List<PathResult> window = new ArrayList<>();
    List<PathResult> shown = new ArrayList<>();
    select(latest.values(), me, listed, now, round, cover, window, shown);
    String selfNic = mostCommonNic(window);
    Map<String, Long> probeCounts = new LinkedHashMap<>();
    counts.forEach((k, v) -> probeCounts.put(k, v.get()));
    java.util.function.Function<String, String> torOf =
        peer -> listed.containsKey(peer) ? listed.get(peer).tor() : null;
    List<PeerFindings.Suspect> suspects = new ArrayList<>();
    PeerSnapshot.NpuPaths npuPaths = PeerSnapshot.NpuPaths.NONE;
    if (me != null) {
      suspects.addAll(PeerFindings.judge(me.host(), selfNic, me.tor(), window, torOf));
    }
    if (npu != null) {
      List<PathResult> npuWindow = new ArrayList<>();
      List<PathResult> npuShown = new ArrayList<>();
      select(npu.latest(), me, listed, now, round, cover, npuWindow, npuShown);
      if (me != null) {
        // Each port judged on its own paths: one port failing to every peer is that port, not
        // the host, and its peers' same port failing from here is theirs. The members' `tor` is
        // the switch of their host NICs, not of the NPU ports' fabric: no switch is named from
        // the ports' pings (and one switch is never named twice).
        Map<String, List<PathResult>> byPort = new java.util.TreeMap<>();
        npuWindow.forEach(r -> byPort.computeIfAbsent(r.srcNic(), n -> new ArrayList<>()).add(r));
        byPort.forEach(
            (port, paths) -> suspects.addAll(PeerFindings.judge(me.host(), port, paths)));
      }
      npuPaths =
          new PeerSnapshot.NpuPaths(
              npu.ports(), npuShown, npuWindow, npu.counts(), npu.lastError());
    }
    return new PeerSnapshot(
        membership.source(),
        members,
        me,
        selfNic,
        round,
        cover,
        config.budgetPerHour(),
        meter.lastHour(),
        List.copyOf(shown),
        List.copyOf(window),
        List.copyOf(suspects),
        probeCounts,
        membership.lastError(),
        membership.failures(),
        echoesRefused.get(),
        npuPaths);
  }

  /**
   * The results within the cover period ({@code window}), and those with a series ({@code shown}):
   * probed in the last two rounds, under the same switch, or failed.
   */
  private static void select(
      java.util.Collection<PathResult> results,
      Member me,
      Map<String, Member> listed,
      Instant now,
      Duration round,
      Duration cover,
      List<PathResult> window,
      List<PathResult> shown) {
    if (round == null || me == null) {
      return;
    }
    Instant since = now.minus(cover).minus(round);
    Instant recent = now.minus(round.multipliedBy(2));
    String tor = me.tor();
    for (PathResult r : results) {
      if (!listed.containsKey(r.peer()) || r.at().isBefore(since)) {
        continue;
      }
      window.add(r);
      Member peer = listed.get(r.peer());
      boolean sameTor = tor != null && peer != null && tor.equals(peer.tor());
      if (!r.ok() || sameTor || !r.at().isBefore(recent)) {
        shown.add(r);
      }
    }
    Comparator<PathResult> order =
        Comparator.comparing(PathResult::peer)
            .thenComparing(r -> r.srcNic() == null ? "" : r.srcNic());
    window.sort(order);
    shown.sort(order);
  }

  private static String mostCommonNic(List<PathResult> window) {
    Map<String, Integer> n = new java.util.HashMap<>();
    window.forEach(
        r -> {
          if (r.srcNic() != null) {
            n.merge(r.srcNic(), 1, Integer::sum);
          }
        });
    return n.entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElse(null);
  }

  @Override
  public void close() {
    closed = true;
    rounds.interrupt();
    probes.shutdownNow();
    if (npu != null) {
      npu.close();
    }
    membership.close();
    try {
      rounds.join(2000);
      probes.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
