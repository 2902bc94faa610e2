package io.linkwatch.peer.collective;

import io.linkwatch.peer.PeerConfig;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The peer's side of a two-host run: it lends its devices to one prober at a time, for a bounded
 * time, and only when nothing of its own uses them. A lease holds the same lane of device work and
 * host probe lock the agent's own probes take, so no probe of this host and no {@code linkwatch
 * check} runs beside it; it ends when the run under it ends, when the prober gives it back, or when
 * it expires, whichever comes first.
 *
 * <p>The devices themselves are checked by the run's worker, before and after, as every probe's
 * are: a job found there makes this side's run {@code skipped_device_busy} (or {@code
 * discarded_device_busy}), which the prober learns from the answer and records as its own.
 */
public final class LeaseDesk implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaseDesk.class);

  /** Past the run's deadline, the time a prober has to start its run and for the answer. */
  static final Duration SLACK = Duration.ofSeconds(15);

  /** The lane of device work and the host's probe lock (the agent's probe executor). */
  @FunctionalInterface
  public interface DeviceLane {
    Optional<AutoCloseable> hold(String who, Duration wait) throws InterruptedException;
  }

  /** Runs this side's part of {@code probe} in a worker under a deadline. */
  @FunctionalInterface
  public interface PeerWorker {
    ProbeRun run(String probe, ProbeSettings settings, Duration deadline);
  }

  /** A device this host's own checks found busy lately, with what they saw; empty when none. */
  @FunctionalInterface
  public interface RecentBusy {
    Optional<String> among(List<Integer> devices);
  }

  /** A run under an unknown lease (expired, released, never granted): the prober's mistake. */
  public static final class NoSuchLease extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoSuchLease(String id) {
      super("no lease " + id + " is held here (expired, given back, or never granted)");
    }
  }

  private final Optional<PeerConfig.Collective> config;
  private final DeviceLane lane;
  private final PeerWorker worker;
  private final RecentBusy recentBusy;
  private final PairResults results;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "peer-lease-expiry");
            t.setDaemon(true);
            return t;
          });

  /** The one lease out; guarded by this. */
  private Lease current;

  /** The largest message a prober may ask for: 4 GiB, twice the in-host default's largest. */
  private static final long MAX_SIZE = 4L << 30;

  /** The outcomes of the last runs, for the probers still asking; guarded by this. */
  private final Map<String, LeaseWire.Outcome> finished =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, LeaseWire.Outcome> eldest) {
          return size() > 16;
        }
      };

  /** Runs one side's part at a time, off the HTTP threads. */
  private final ExecutorService runs =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "peer-lease-run");
            t.setDaemon(true);
            return t;
          });

  private final class Lease {
    final String id = UUID.randomUUID().toString();
    final String from;
    final AutoCloseable hold;
    final Instant until;
    ScheduledFuture<?> expiry;
    boolean running;
    java.util.concurrent.CompletableFuture<LeaseWire.Outcome> outcome;

    Lease(String from, AutoCloseable hold, Instant until) {
      this.from = from;
      this.hold = hold;
      this.until = until;
    }
  }

  /**
   * @param config this host's {@code peers.collective}; empty: every request is refused
   */
  public LeaseDesk(
      Optional<PeerConfig.Collective> config,
      DeviceLane lane,
      PeerWorker worker,
      RecentBusy recentBusy,
      PairResults results,
      Clock clock) {
    this.config = config;
    this.lane = lane;
    this.worker = worker;
    this.recentBusy = recentBusy;
    this.results = results;
    this.clock = clock;
  }

  /** A {@link LeaseWire.Grant} or a {@link LeaseWire.Refusal}. */
  public Object request(LeaseWire.Request request) throws InterruptedException {
    if (config.isEmpty()) {
      return refuse(request, "peers.collective is not configured on this host");
    }
    PeerConfig.Collective c = config.get();
    Optional<String> busy = recentBusy.among(c.devices());
    if (busy.isPresent()) {
      return refuse(request, busy.get());
    }
    synchronized (this) {
      if (current != null) {
        return refuse(request, "a lease for " + current.from + " is out until " + current.until);
      }
      // No wait: a prober that finds this host busy tries again in a later round.
      Optional<AutoCloseable> hold = lane.hold("lease for peer " + request.from(), Duration.ZERO);
      if (hold.isEmpty()) {
        return refuse(request, "a probe or a check of this host holds the devices");
      }
      Duration length = c.deadline().plus(SLACK);
      if (request.seconds() > 0 && request.seconds() < length.toSeconds()) {
        length = Duration.ofSeconds(request.seconds());
      }
      Lease lease = new Lease(request.from(), hold.get(), clock.instant().plus(length));
      try {
        lease.expiry =
            timer.schedule(() -> expire(lease), length.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        closeQuietly(lease);
        return refuse(request, "the agent is stopping");
      }
      current = lease;
      log.info("peer lease {} granted to {} for {}s", lease.id, lease.from, length.toSeconds());
      return new LeaseWire.Grant(lease.id, c.devices(), length.toSeconds());
    }
  }

  private Object refuse(LeaseWire.Request request, String why) {
    log.info("peer lease refused to {} for {}: {}", request.from(), request.probeOrDefault(), why);
    results.leaseRefused(request.probeOrDefault(), request.from());
    return new LeaseWire.Refusal(why);
  }

  /** What a run under a lease answers while it goes on. */
  public static final LeaseWire.State RUNNING = new LeaseWire.State("running");

  /**
   * Starts this side's part of the run under lease {@code id}, in the background: the prober asks
   * for its {@link #outcome} until it has one. The lease ends with the run.
   *
   * @throws NoSuchLease when no such lease is held, or its run already started
   * @throws IllegalArgumentException when the run is not one this side can take part in
   */
  public void start(String id, LeaseWire.Run run) {
    PeerConfig.Collective c = config.orElseThrow(() -> new NoSuchLease(id));
    ProbeSettings settings = settings(run, c);
    Lease lease;
    synchronized (this) {
      lease = current;
      if (lease == null || !lease.id.equals(id) || lease.running) {
        throw new NoSuchLease(id);
      }
      lease.running = true;
      lease.outcome = new java.util.concurrent.CompletableFuture<>();
    }
    try {
      runs.execute(() -> runUnder(lease, run.probeOrDefault(), settings, c));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // Stopping: the lease ends here, unanswered.
      end(lease, "agent stopping");
      throw new NoSuchLease(id);
    }
  }

  private void runUnder(
      Lease lease, String probe, ProbeSettings settings, PeerConfig.Collective c) {
    long started = System.nanoTime();
    LeaseWire.Outcome o;
    try {
      ProbeRun result = worker.run(probe, settings, c.deadline());
      results.answered(probe, lease.from, result);
      o = PairResults.outcome(result, (System.nanoTime() - started) / 1e9);
    } catch (RuntimeException e) {
      results.answered(probe, lease.from, null);
      o = new LeaseWire.Outcome("error", e.toString(), (System.nanoTime() - started) / 1e9);
    }
    log.info(
        "probe={} peer={} role=responder result={}{}",
        probe,
        lease.from,
        o.result(),
        o.error().isEmpty() ? "" : " error=\"" + o.error() + "\"");
    synchronized (this) {
      finished.put(lease.id, o);
    }
    lease.outcome.complete(o);
    end(lease, "run ended");
  }

  /**
   * How this side's part of the run under lease {@code id} ended; {@link #RUNNING} while it goes
   * on.
   *
   * @throws NoSuchLease when no run was started under it here (or it ended long ago)
   */
  public synchronized Object outcome(String id) {
    LeaseWire.Outcome done = finished.get(id);
    if (done != null) {
      return done;
    }
    if (current != null && current.id.equals(id) && current.running) {
      return RUNNING;
    }
    throw new NoSuchLease(id);
  }

  /** The run a prober asks for, checked as the config's own settings are. */
  private static ProbeSettings settings(LeaseWire.Run run, PeerConfig.Collective c) {
    if (run.sizes() == null || run.sizes().isEmpty()) {
      throw new IllegalArgumentException("sizes: at least one message size");
    }
    for (Long size : run.sizes()) {
      if (size == null || size < 2 || size % 2 != 0 || size > MAX_SIZE) {
        throw new IllegalArgumentException(
            "sizes: " + size + " is not an fp16 message size of 2 bytes to 4GiB");
      }
    }
    if (run.warmup() < 0 || run.warmup() > 10_000) {
      throw new IllegalArgumentException("warmup: " + run.warmup() + " is not 0 to 10000");
    }
    if (run.iterations() < 1 || run.iterations() > 100_000) {
      throw new IllegalArgumentException("iterations: " + run.iterations() + " is not 1 to 100000");
    }
    if (run.firstRank() < 1) {
      throw new IllegalArgumentException("first_rank: the peer's ranks follow the prober's");
    }
    String probe = run.probeOrDefault();
    if (!ProbeKind.PEER_PROBES.contains(probe)) {
      throw new IllegalArgumentException(
          "probe: "
              + probe
              + " is not a two-host probe this agent knows ("
              + String.join(", ", ProbeKind.PEER_PROBES)
              + ")");
    }
    if (run.rootInfo() == null || run.rootInfo().isBlank()) {
      throw new IllegalArgumentException("root_info: missing");
    }
    try {
      java.util.Base64.getDecoder().decode(run.rootInfo());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("root_info: not base64: " + e.getMessage());
    }
    // The point to point takes one device a side: the first of this host's.
    List<Integer> devices =
        ProbeKind.PEER_P2P.equals(probe) ? c.devices().subList(0, 1) : c.devices();
    return ProbeKind.peerJoining(
        probe,
        run.sizes(),
        run.warmup(),
        run.iterations(),
        devices,
        run.ranks(),
        run.firstRank(),
        run.rootInfo());
  }

  /** The prober gives the lease back (its run is over, or will not happen). */
  public void release(String id) {
    Lease lease;
    synchronized (this) {
      lease = current;
      if (lease == null || !lease.id.equals(id) || lease.running) {
        // A running lease ends with its run.
        return;
      }
    }
    end(lease, "given back");
  }

  private void expire(Lease lease) {
    synchronized (this) {
      if (current != lease || lease.running) {
        return;
      }
    }
    end(lease, "expired");
  }

  private void end(Lease lease, String why) {
    synchronized (this) {
      if (current != lease) {
        return;
      }
      current = null;
    }
    lease.expiry.cancel(false);
    closeQuietly(lease);
    log.info("peer lease {} of {} ended: {}", lease.id, lease.from, why);
  }

  private static void closeQuietly(Lease lease) {
    try {
      lease.hold.close();
    } catch (Exception e) {
      log.warn("releasing the devices of peer lease {}: {}", lease.id, e.toString());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    runs.shutdownNow();
    Lease lease;
    synchronized (this) {
      lease = current;
    }
    if (lease != null) {
      end(lease, "agent stopping");
    }
  }
}
