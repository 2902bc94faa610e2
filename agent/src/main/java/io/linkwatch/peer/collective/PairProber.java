package io.linkwatch.peer.collective;

import io.linkwatch.peer.PeerConfig;
import io.linkwatch.peer.PeerSchedule;
import io.linkwatch.peer.PeerSnapshot;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts this host's two-host runs: each round of {@code peers.collective.every}, the partners the
 * fleet's circle gives this member ({@link PeerSchedule}, the fabric's tier) and whose names sort
 * after its own, one after another. Every agent computes the same plan from the same member list
 * and clock, so every pair runs once in {@code n - 1} rounds and nobody leads.
 *
 * <p>A run: hold this host's lane of device work; ask the peer for a lease (a refusal is {@code
 * skipped_peer}, never a failure); start this side's worker, which checks its devices and makes the
 * group's blob; hand the blob to the peer, whose worker joins; the collective's bytes then cross
 * between the two hosts. The pair's result is the worse of the two sides': a peer that found a job
 * on its devices makes the run skipped (and this side's worker is stopped), a peer whose check of
 * the received data failed makes it failed.
 */
public final class PairProber implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PairProber.class);

  /** The longest this host waits for its own lane before a round's run is skipped. */
  private static final Duration LANE_WAIT = Duration.ofSeconds(10);

  /** How long this side may still take once the peer's side failed, before it is stopped. */
  private static final Duration PEER_FAILED_GRACE = Duration.ofSeconds(2);

  /** How often the peer is asked for its side's outcome. */
  private static final Duration POLL = Duration.ofMillis(200);

  /** Unanswered asks, once this side is done, after which the peer is taken to be gone. */
  private static final int PEER_SILENT_POLLS = 10;

  /** How long a stopped worker's run may take to return (the kill, then its post-mortem). */
  private static final Duration STOP_WAIT = Duration.ofSeconds(30);

  /** Leases asked for again within a round after a refusal, at most. */
  private static final int LEASE_TRIES = 3;

  /** Members plan with this budget: the runs are few, bounded by {@code every} alone. */
  private static final int UNBOUNDED_BUDGET = 1_000_000;

  /** This side's worker, started in the background, and stopped when the peer's side ends it. */
  public interface RootWorker {
    CompletableFuture<ProbeRun> start(String probe, ProbeSettings settings, Duration deadline);

    void stop();
  }

  private final PeerConfig.Collective config;
  private final Supplier<PeerSnapshot> peers;
  private final LeaseDesk.DeviceLane lane;
  private final RootWorker worker;
  private final PairResults results;
  private final Path rootInfoDir;
  private final Clock clock;
  private final PeerRequests http;
  private final Thread loop;
  private volatile boolean closed;

  public PairProber(
      PeerConfig.Collective config,
      Supplier<PeerSnapshot> peers,
      LeaseDesk.DeviceLane lane,
      RootWorker worker,
      PairResults results,
      Path rootInfoDir,
      Clock clock,
      PeerRequests http) {
    this.config = config;
    this.peers = peers;
    this.lane = lane;
    this.worker = worker;
    this.results = results;
    this.rootInfoDir = rootInfoDir;
    this.clock = clock;
    this.http = http;
    this.loop = new Thread(this::loop, "peer-collective");
    this.loop.setDaemon(true);
  }

  public void start() {
    loop.start();
  }

  private void loop() {
    long done = Long.MIN_VALUE;
    while (!closed) {
      long every = config.every().toSeconds();
      Instant now = clock.instant();
      long round = Math.floorDiv(now.getEpochSecond(), every);
      try {
        if (round != done) {
          done = round;
          // Spread the fleet's lease requests over the round's first seconds.
          sleep(Duration.ofMillis(ThreadLocalRandom.current().nextLong(1 + jitter().toMillis())));
          runRound(round);
        }
        Instant next = Instant.ofEpochSecond((round + 1) * every);
        sleep(Duration.between(clock.instant(), next).plusMillis(50));
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("two-host round {} failed: {}", round, e.toString(), e);
      }
    }
  }

  private Duration jitter() {
    return Duration.ofMillis(Math.min(2000, config.every().toMillis() / 10));
  }

  /** This round's runs that this member starts. */
  void runRound(long round) throws InterruptedException {
    PeerSnapshot s = peers.get();
    if (s == null || s.self() == null || s.members().size() < 2) {
      return;
    }
    String self = s.self().host();
    PeerSchedule plan = PeerSchedule.of(s.members(), config.every(), UNBOUNDED_BUDGET);
    Instant roundEnds = plan.start(round + 1);
    for (PeerSchedule.Pair p : plan.pairsOf(self, round)) {
      if (closed || p.tier() != PeerSchedule.Tier.FABRIC || !p.prober().equals(self)) {
        continue;
      }
      for (String probe : config.probes()) {
        if (!closed) {
          runWith(probe, self, p.responder(), roundEnds);
        }
      }
    }
  }

  /**
   * One run of {@code probe} with {@code dst}, asking again after a refusal while there is room.
   */
  void runWith(String probe, String self, String dst, Instant roundEnds)
      throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      String refused = attempt(probe, self, dst);
      if (refused == null) {
        return;
      }
      Duration pause = Duration.ofMillis(1000 + ThreadLocalRandom.current().nextLong(4000));
      Instant latest = roundEnds.minus(config.deadline()).minus(LeaseDesk.SLACK);
      if (attempt >= LEASE_TRIES || clock.instant().plus(pause).isAfter(latest)) {
        results.probed(probe, self, dst, "skipped_peer", refused, List.of());
        log.info("{} with {} skipped: the peer refused the lease: {}", probe, dst, refused);
        return;
      }
      sleep(pause);
    }
  }

  /** One try; returns the peer's refusal, or null when the run is over and recorded. */
  private String attempt(String probe, String self, String dst) throws InterruptedException {
    Optional<AutoCloseable> hold = lane.hold(probe + " with " + dst, LANE_WAIT);
    if (hold.isEmpty()) {
      record(
          probe,
          self,
          dst,
          "skipped_busy",
          "a probe or a check of this host held the devices",
          null);
      return null;
    }
    AutoCloseable held = hold.get();
    try {
      Object answer;
      try {
        answer =
            post(dst, "/api/v1/peer/lease", new LeaseWire.Request(self, leaseSeconds(), probe));
      } catch (IOException e) {
        // The peer's agent down, restarting, of another version or asking for a login: not a
        // verdict on the path between the two hosts (the echoes between them give that).
        record(
            probe,
            self,
            dst,
            "lease_failed",
            "asking " + dst + " for a lease: " + reason(e) + httpsHint(),
            null);
        return null;
      }
      if (answer instanceof LeaseWire.Refusal r) {
        return r.refused();
      }
      run(probe, self, dst, (LeaseWire.Grant) answer);
      return null;
    } catch (InterruptedException e) {
      throw e;
    } catch (RuntimeException e) {
      record(probe, self, dst, "error", e.toString(), null);
      return null;
    } finally {
      try {
        held.close();
      } catch (Exception e) {
        log.warn("releasing the devices after {} with {}: {}", probe, dst, e.toString());
      }
    }
  }

  private String httpsHint() {
    return http.httpsHint();
  }

  private long leaseSeconds() {
    return config.deadline().plus(LeaseDesk.SLACK).toSeconds();
  }

  private void run(String probe, String self, String dst, LeaseWire.Grant lease)
      throws InterruptedException {
    // The point to point takes one device a side, the first of each host's.
    boolean oneEach = ProbeKind.PEER_P2P.equals(probe);
    List<Integer> devices = oneEach ? config.devices().subList(0, 1) : config.devices();
    int ranks = devices.size() + (oneEach ? 1 : lease.devices().size());
    Path file = rootInfoDir.resolve(UUID.randomUUID() + ".rootinfo");
    String leasePath = "/api/v1/peer/lease/" + lease.lease();
    boolean leaseUsed = false;
    CompletableFuture<ProbeRun> own = null;
    try {
      own =
          worker.start(
              probe,
              ProbeKind.peerRoot(
                  probe,
                  config.sizes(),
                  config.warmup(),
                  config.iterations(),
                  devices,
                  ranks,
                  file.toString()),
              config.deadline());
      String rootInfo = awaitRootInfo(file, own);
      if (rootInfo == null) {
        // This side's worker ended before it made the blob (its devices were busy, or it failed),
        // or made none within the deadline.
        if (!own.isDone()) {
          stopAndWait(own);
        }
        ProbeRun mine = own.getNow(null);
        LeaseWire.Outcome o =
            mine == null
                ? new LeaseWire.Outcome("timeout", "no root info within the deadline", 0)
                : PairResults.outcome(mine, 0);
        record(probe, self, dst, o.result(), o.error(), mine);
        return;
      }
      try {
        postRun(
            dst,
            leasePath + "/run",
            new LeaseWire.Run(
                rootInfo,
                ranks,
                devices.size(),
                config.sizes(),
                config.warmup(),
                config.iterations(),
                probe));
        leaseUsed = true;
      } catch (IOException e) {
        stopAndWait(own);
        record(probe, self, dst, "error", "starting " + dst + "'s side: " + reason(e), null);
        return;
      }
      settle(probe, self, dst, leasePath, own);
    } finally {
      // Nothing of this run may outlive the lane it holds: the next run, this host's or a peer's,
      // starts from a clean worker.
      if (own != null && !own.isDone()) {
        stopAndWait(own);
      }
      try {
        Files.deleteIfExists(file);
        Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".partial"));
      } catch (IOException e) {
        log.debug("removing {}: {}", file, e.toString());
      }
      if (!leaseUsed) {
        delete(dst, leasePath);
      }
    }
  }

  /**
   * Follows both sides to their end and records the pair's result: the peer's skip wins (this side
   * is stopped), then the first failure, this side's own or the peer's.
   */
  private void settle(
      String probe, String self, String dst, String leasePath, CompletableFuture<ProbeRun> own)
      throws InterruptedException {
    long until = System.nanoTime() + config.deadline().plus(LeaseDesk.SLACK).toNanos();
    LeaseWire.Outcome their = null;
    String unanswered = null;
    int misses = 0;
    boolean stoppedForPeer = false;
    while (System.nanoTime() < until) {
      if (their == null) {
        try {
          their = poll(dst, leasePath);
          misses = 0;
        } catch (IOException e) {
          unanswered = reason(e);
          misses++;
        }
      }
      if (their != null) {
        if (own.isDone()) {
          break;
        }
        Outcome t = outcomeOf(their.result());
        if (t == Outcome.SKIPPED_DEVICE_BUSY || t == Outcome.DISCARDED_DEVICE_BUSY) {
          stopAndWait(own);
          stoppedForPeer = true;
          break;
        }
        if (t != Outcome.SUCCESS) {
          // The peer's side failed (before it joined, say): this side's ranks would wait for it
          // until the deadline. A side that failed in the rounds took this one down with it.
          if (!awaitQuietly(own, PEER_FAILED_GRACE)) {
            stopAndWait(own);
            stoppedForPeer = true;
          }
          break;
        }
      } else if (own.isDone() && misses >= PEER_SILENT_POLLS) {
        break;
      }
      Thread.sleep(POLL.toMillis());
    }
    if (!own.isDone()) {
      stopAndWait(own);
    }
    ProbeRun mine = own.getNow(null);
    LeaseWire.Outcome o =
        mine == null
            ? new LeaseWire.Outcome("timeout", "this side ended without a result", 0)
            : PairResults.outcome(mine, 0);
    if (their == null) {
      String why =
          dst
              + " gave no outcome for its side: "
              + (unanswered == null ? "not within the deadline" : unanswered);
      boolean ok = "success".equals(o.result());
      record(probe, self, dst, ok ? "error" : o.result(), ok ? why : o.error() + "; " + why, mine);
      return;
    }
    Outcome t = outcomeOf(their.result());
    if (t == Outcome.SKIPPED_DEVICE_BUSY || t == Outcome.DISCARDED_DEVICE_BUSY) {
      record(probe, self, dst, t.label(), "on " + dst + ": " + their.error(), null);
    } else if (stoppedForPeer
        || !"success".equals(their.result()) && "success".equals(o.result())) {
      record(probe, self, dst, their.result(), "on " + dst + ": " + their.error(), null);
    } else if (!"success".equals(o.result())) {
      record(probe, self, dst, o.result(), o.error(), mine);
    } else {
      record(probe, self, dst, "success", "", mine);
    }
  }

  /** Stops this side's worker and waits until its run has returned. */
  private void stopAndWait(CompletableFuture<ProbeRun> own) throws InterruptedException {
    worker.stop();
    if (!awaitQuietly(own, STOP_WAIT)) {
      log.warn("two-host run: this side's worker did not end within {}", STOP_WAIT);
    }
  }

  /** Whether {@code own} ended within {@code wait}. */
  private static boolean awaitQuietly(CompletableFuture<ProbeRun> own, Duration wait)
      throws InterruptedException {
    try {
      own.get(wait.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      return true;
    } catch (TimeoutException e) {
      return false;
    }
  }

  private void record(
      String probe, String self, String dst, String result, String error, ProbeRun run) {
    List<Measurement> figures =
        run == null || !"success".equals(result)
            ? List.of()
            : run.targets().stream().flatMap(t -> t.measurements().stream()).toList();
    results.probed(probe, self, dst, result, error, figures);
    String first = figures.isEmpty() ? "" : " " + figures.get(figures.size() - 1).summary();
    log.info(
        "probe={} peer={} result={}{}{}",
        probe,
        dst,
        result,
        first,
        error == null || error.isEmpty() ? "" : " error=\"" + error + "\"");
  }

  private static Outcome outcomeOf(String label) {
    for (Outcome o : Outcome.values()) {
      if (o.label().equals(label)) {
        return o;
      }
    }
    return Outcome.ERROR;
  }

  /** The blob, once this side's worker wrote it; null when the worker ended without. */
  private String awaitRootInfo(Path file, CompletableFuture<ProbeRun> own)
      throws InterruptedException {
    Instant until = clock.instant().plus(config.deadline());
    while (clock.instant().isBefore(until)) {
      if (Files.exists(file)) {
        try {
          return Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
          log.warn("reading the root info {}: {}", file, e.toString());
          return null;
        }
      }
      if (own.isDone()) {
        return null;
      }
      Thread.sleep(20);
    }
    return null;
  }

  private Object post(String dst, String path, Object body)
      throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(request(dst, path, body, Duration.ofSeconds(10)), bodyString());
    return switch (r.statusCode()) {
      case 200 -> LeaseWire.read(r.body(), LeaseWire.Grant.class);
      case 409 -> LeaseWire.read(r.body(), LeaseWire.Refusal.class);
      default ->
          throw new IOException(
              "HTTP " + r.statusCode() + " from " + path + ": " + firstLine(r.body()));
    };
  }

  /** Starts the peer's side; it answers at once. */
  private void postRun(String dst, String path, LeaseWire.Run run)
      throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(request(dst, path, run, Duration.ofSeconds(10)), bodyString());
    if (r.statusCode() != 202) {
      throw new IOException(
          "HTTP " + r.statusCode() + " from " + path + ": " + firstLine(r.body()));
    }
  }

  /** The peer's outcome for its side; null while it runs. */
  private LeaseWire.Outcome poll(String dst, String path) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(builder(dst, path).timeout(Duration.ofSeconds(5)).GET().build(), bodyString());
    return switch (r.statusCode()) {
      case 200 -> LeaseWire.read(r.body(), LeaseWire.Outcome.class);
      case 202 -> null;
      default ->
          throw new IOException(
              "HTTP " + r.statusCode() + " from " + path + ": " + firstLine(r.body()));
    };
  }

  private void delete(String dst, String path) {
    try {
      http.send(
          builder(dst, path).timeout(Duration.ofSeconds(5)).DELETE().build(),
          HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      // The lease expires on its own.
      log.debug("giving back the lease at {}: {}", dst, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private HttpRequest request(String dst, String path, Object body, Duration timeout) {
    return builder(dst, path)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(LeaseWire.write(body)))
        .build();
  }

  private HttpRequest.Builder builder(String dst, String path) {
    return http.to(dst, path);
  }

  private static HttpResponse.BodyHandler<String> bodyString() {
    return HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8);
  }

  private static String firstLine(String body) {
    String s = body == null ? "" : body.strip();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static String reason(Throwable e) {
    if (e instanceof java.net.ConnectException) {
      // The JDK's client says no more than the class: nothing listens there.
      return "connection refused (its agent is not running, or not on that port)";
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  private void sleep(Duration d) throws InterruptedException {
    if (!d.isNegative() && !d.isZero()) {
      Thread.sleep(d.toMillis());
    }
  }

  @Override
  public void close() {
    closed = true;
    loop.interrupt();
    worker.stop();
  }
}
