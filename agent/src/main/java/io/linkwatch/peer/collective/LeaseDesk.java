package io.linkwatch.peer.collective;

import io.linkwatch.peer.PeerConfig;
import io.linkwatch.probe.collective.PeerAllreduceSettings;
import io.linkwatch.probe.result.ProbeRun;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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

  /** Runs this side's part in a worker under a deadline. */
  @FunctionalInterface
  public interface PeerWorker {
    ProbeRun run(PeerAllreduceSettings settings, Duration deadline);
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

  private final class Lease {
    final String id = UUID.randomUUID().toString();
    final String from;
    final AutoCloseable hold;
    final Instant until;
    ScheduledFuture<?> expiry;
    boolean running;

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
      lease.expiry = timer.schedule(() -> expire(lease), length.toMillis(), TimeUnit.MILLISECONDS);
      current = lease;
      log.info("peer lease {} granted to {} for {}s", lease.id, lease.from, length.toSeconds());
      return new LeaseWire.Grant(lease.id, c.devices(), length.toSeconds());
    }
  }

  private Object refuse(LeaseWire.Request request, String why) {
    log.info("peer lease refused to {}: {}", request.from(), why);
    results.leaseRefused(request.from());
    return new LeaseWire.Refusal(why);
  }

  /** This side's part of the run under lease {@code id}; the lease ends with it. */
  public LeaseWire.Outcome run(String id, LeaseWire.Run run) {
    Lease lease;
    synchronized (this) {
      lease = current;
      if (lease == null || !lease.id.equals(id) || lease.running) {
        throw new NoSuchLease(id);
      }
      lease.running = true;
    }
    PeerConfig.Collective c = config.orElseThrow();
    long started = System.nanoTime();
    try {
      PeerAllreduceSettings settings =
          new PeerAllreduceSettings(
              run.sizes(),
              run.warmup(),
              run.iterations(),
              c.devices(),
              run.ranks(),
              run.firstRank(),
              run.rootInfo(),
              "");
      ProbeRun result = worker.run(settings, c.deadline());
      results.answered(lease.from, result);
      LeaseWire.Outcome o = PairResults.outcome(result, (System.nanoTime() - started) / 1e9);
      log.info(
          "probe=peer_allreduce peer={} role=responder result={}{}",
          lease.from,
          o.result(),
          o.error().isEmpty() ? "" : " error=\"" + o.error() + "\"");
      return o;
    } catch (IllegalArgumentException e) {
      results.answered(lease.from, null);
      return new LeaseWire.Outcome("error", e.getMessage(), (System.nanoTime() - started) / 1e9);
    } finally {
      end(lease, "run ended");
    }
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
    try {
      lease.hold.close();
    } catch (Exception e) {
      log.warn("releasing the devices of peer lease {}: {}", lease.id, e.toString());
    }
    log.info("peer lease {} of {} ended: {}", lease.id, lease.from, why);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    Lease lease;
    synchronized (this) {
      lease = current;
    }
    if (lease != null) {
      end(lease, "agent stopping");
    }
  }
}
