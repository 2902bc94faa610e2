package io.linkwatch.peer;

import io.linkwatch.passive.nic.HccnTool;
import io.linkwatch.passive.nic.HccnToolText;
import io.linkwatch.util.Stats;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pings from each of this host's NPU ports to the same port of the peers it meets, with the
 * driver's {@code hccn_tool -ping}: the echoes leave from the device's own RoCE port, the one its
 * collectives to other servers take, which the host's echoes never cross.
 *
 * <p>Port N is paired with the peer's port N only, never with another: a collective's ranks on two
 * hosts meet port to port of the same index (rail to rail), and on an Atlas A3 the neighbouring
 * index is the same card's other die, which RDMA between the two dies does not reach, so a ping to
 * it may fail on a healthy fabric.
 *
 * <p>The tool serves one call at a time, so a round's pings run one after the other on a thread of
 * their own, beside the host's echoes and never in their way. A round that comes while the last one
 * still runs is left out and counted. A path that fails is followed, as the host's are, by a second
 * pass: the same port to the same port of two other members, those that answered most recently
 * first, so that this port is known to work (or not) before anyone is blamed.
 */
public final class NpuPinger implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NpuPinger.class);

  /** Members tried for a second pass, at most, until two have pinged. */
  private static final int SECOND_PASS_TRIES = 4;

  /** One ping from a port: the tool's answer. */
  @FunctionalInterface
  public interface PortPing {
    HccnTool.PingRead ping(int device, String address) throws InterruptedException;
  }

  private final SortedMap<Integer, String> own;
  private final PortPing tool;
  private final PeerIdentities identities;
  private final double lossThreshold;
  private final Clock clock;
  private final Map<String, PathResult> latest = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> counts = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  /** The round waiting for the thread, and whether one runs: both guarded by {@code turn}. */
  private final Object turn = new Object();

  private Meeting pending;
  private boolean busy;

  /** Why the tool could not ping from each port when it last tried; a port that pinged is gone. */
  private final Map<Integer, String> errors = new ConcurrentHashMap<>();

  /** Why nothing can be pinged here at all (no addresses, no tool), or null. */
  private volatile String problem;

  /** A round's partners, and the members then listed. */
  record Meeting(List<String> partners, List<String> members) {}

  /**
   * @param own this host's NPU ports, device to address
   * @param tool how a port pings
   * @param identities the peers' ports
   * @param lossThreshold the share of echoes lost above which a path is lossy
   */
  public NpuPinger(
      SortedMap<Integer, String> own,
      PortPing tool,
      PeerIdentities identities,
      double lossThreshold,
      Clock clock) {
    this.own = own;
    this.tool = tool;
    this.identities = identities;
    this.lossThreshold = lossThreshold;
    this.clock = clock;
    for (String k : List.of("sent", "second_pass", "recheck", "skipped_busy", "failed")) {
      counts.put(k, new AtomicLong());
    }
    this.thread = new Thread(this::run, "peer-npu-ping");
    this.thread.setDaemon(true);
  }

  /**
   * The pinger {@code config} asks for, or null: turned off, or left to {@code auto} on a host
   * whose {@code hccn.conf} lists no address or that has no tool (a host without Ascend NPUs).
   * Turned on without them, it is made all the same and says why it cannot ping.
   */
  public static NpuPinger of(
      PeerConfig config, HccnTool tool, PeerIdentities.Fetch fetch, Clock clock) {
    PeerConfig.NpuPing c = config.npuPing();
    if (c.mode() == PeerConfig.NpuPing.Mode.OFF) {
      return null;
    }
    SortedMap<Integer, String> ports;
    String problem = null;
    try {
      ports = HccnConf.read(c.hccnConf());
      if (ports.isEmpty()) {
        problem = c.hccnConf() + " lists no NPU port address (address_N=IP)";
      }
    } catch (java.nio.file.NoSuchFileException e) {
      ports = java.util.Collections.emptySortedMap();
      problem = c.hccnConf() + " does not exist";
    } catch (java.io.IOException e) {
      ports = java.util.Collections.emptySortedMap();
      problem = "cannot read " + c.hccnConf() + ": " + e.getMessage();
    }
    if (problem == null && tool.absent().isPresent()) {
      problem = tool.absent().get();
    }
    if (problem != null && c.mode() == PeerConfig.NpuPing.Mode.AUTO) {
      log.info("peers: no NPU port pings: {}", problem);
      return null;
    }
    NpuPinger p =
        new NpuPinger(
            ports, tool::ping, new PeerIdentities(fetch, clock), config.lossThreshold(), clock);
    if (problem != null) {
      log.warn("peers.npu_ping: {}", problem);
      p.problem = problem;
    } else {
      log.info("peers: NPU port pings from {} ports ({})", ports.size(), c.hccnConf());
    }
    return p;
  }

  public NpuPinger start() {
    thread.start();
    return this;
  }

  /** This host's ports, device to address. */
  public SortedMap<Integer, String> ports() {
    return own;
  }

  /**
   * This round's partners: their ports are pinged, with up to two peers that failed before; a round
   * that comes while the last round's pings still run is left out and counted, never queued.
   */
  public void meet(List<String> partners, List<String> members) {
    Meeting m = new Meeting(List.copyOf(partners), List.copyOf(members));
    synchronized (turn) {
      if (busy || pending != null) {
        counts.get("skipped_busy").incrementAndGet();
        return;
      }
      pending = m;
      turn.notifyAll();
    }
  }

  private void run() {
    while (!closed) {
      Meeting m;
      try {
        synchronized (turn) {
          while (pending == null && !closed) {
            turn.wait();
          }
          m = pending;
          pending = null;
          busy = m != null;
        }
        if (m != null && !closed) {
          round(m);
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("peer NPU pings: {}", e.toString());
      } finally {
        synchronized (turn) {
          busy = false;
        }
      }
    }
  }

  /** One round: the partners' ports, the failed paths again, and second passes. */
  void round(Meeting m) throws InterruptedException {
    if (own.isEmpty()) {
      return; // nothing to ping from: no peer is asked for its ports
    }
    Set<String> members = new HashSet<>(m.members());
    latest.keySet().removeIf(k -> !members.contains(peerOf(k)));
    identities.retain(members);
    List<PathResult> results = new ArrayList<>();
    // Pinged this round from every port: no second pass of any port goes through them.
    Set<String> probed = new HashSet<>();
    for (String peer : m.partners()) {
      results.addAll(pingPeer(peer, "sent"));
      probed.add(peer);
    }
    for (PathResult r : SecondPass.rechecks(latest.values(), probed)) {
      int device = device(r.srcNic());
      if (!identities.npuPorts(r.peer()).containsKey(device)) {
        // The peer no longer lists that port: nothing to recheck, and no slot held by it.
        latest.remove(key(r.peer(), device));
        continue;
      }
      probed.add(r.peer());
      PathResult again = pingPort(r.peer(), device, "recheck");
      if (again != null) {
        results.add(again);
      }
    }
    // A second pass's members are excluded for that port only: the other ports still need them.
    Map<Integer, Set<String>> passedThrough = new java.util.TreeMap<>();
    SecondPass.settle(
            results,
            failed -> {
              Set<String> excluded =
                  passedThrough.computeIfAbsent(
                      device(failed.srcNic()), d -> new HashSet<>(probed));
              return secondPass(failed, members, excluded);
            })
        .forEach(r -> latest.put(key(r.peer(), device(r.srcNic())), r));
  }

  /** Every port this host and {@code peer} both have, port N to port N. */
  private List<PathResult> pingPeer(String peer, String counter) throws InterruptedException {
    SortedMap<Integer, String> theirs = identities.npuPorts(peer);
    List<PathResult> out = new ArrayList<>();
    for (int device : own.keySet()) {
      if (theirs.containsKey(device)) {
        PathResult r = ping(peer, device, theirs.get(device), counter);
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  private PathResult pingPort(String peer, int device, String counter) throws InterruptedException {
    String address = identities.npuPorts(peer).get(device);
    return address == null ? null : ping(peer, device, address, counter);
  }

  /**
   * The same port to the same port of two other members: those whose path from it passed most
   * recently, then others at random.
   */
  private List<PathResult> secondPass(PathResult failed, Set<String> members, Set<String> probed)
      throws InterruptedException {
    int device = device(failed.srcNic());
    Set<String> excluded = new HashSet<>(probed);
    excluded.add(failed.peer());
    List<String> candidates =
        SecondPass.candidates(
            latest.values().stream().filter(r -> device(r.srcNic()) == device).toList(),
            members,
            excluded);
    List<PathResult> out = new ArrayList<>();
    // A member that lists no such port costs an identity request: a few tries, not the fleet.
    for (String peer : candidates.subList(0, Math.min(SECOND_PASS_TRIES, candidates.size()))) {
      if (out.size() == 2) {
        break;
      }
      probed.add(peer);
      PathResult r = pingPort(peer, device, "second_pass");
      if (r != null) {
        out.add(r.asSecondPass());
      }
    }
    return out;
  }

  /** One ping; null when the tool could not ping at all (that is no path's verdict). */
  private PathResult ping(String peer, int device, String address, String counter)
      throws InterruptedException {
    counts.get(counter).incrementAndGet();
    Instant at = clock.instant();
    HccnTool.PingRead read = tool.ping(device, address);
    if (!(read instanceof HccnTool.Pinged pinged)) {
      if (closed) {
        return null; // the agent stops: the call was cut short, no failure of the tool's
      }
      counts.get("failed").incrementAndGet();
      String why =
          read instanceof HccnTool.Failed f
              ? f.call() + ": " + f.reason()
              : ((HccnTool.Absent) read).reason();
      if (!why.equals(errors.put(device, why))) {
        // Once per port and reason, not every round.
        log.warn("peer NPU pings: npu{} to {} ({}): {}", device, peer, address, why);
      }
      return null;
    }
    errors.remove(device);
    HccnToolText.Ping p = pinged.ping();
    double[] rtts = p.rttSeconds().stream().mapToDouble(Double::doubleValue).toArray();
    String nic = "npu" + device;
    return new PathResult(
        peer,
        nic,
        nic,
        p.sent(),
        p.received(),
        rtts.length == 0 ? Double.NaN : Stats.quantile(rtts, 0.5),
        rtts.length == 0 ? Double.NaN : Stats.quantile(rtts, 0.99),
        java.util.Arrays.stream(rtts).sum(),
        false,
        Double.NaN,
        p.received() == 0 ? "no echo came back from " + address : null,
        at,
        false,
        PathVerdict.judge(p.sent(), p.received(), false, false, lossThreshold),
        -1);
  }

  private static String key(String peer, int device) {
    return device + "|" + peer;
  }

  private static String peerOf(String key) {
    return key.substring(key.indexOf('|') + 1);
  }

  static int device(String nic) {
    return Integer.parseInt(nic.substring("npu".length()));
  }

  /** Every path's latest result. */
  public List<PathResult> latest() {
    return List.copyOf(latest.values());
  }

  /**
   * Pings by why they ran ({@code sent}, {@code recheck}, {@code second_pass}), rounds left out
   * ({@code skipped_busy}), and pings the tool could not make ({@code failed}).
   */
  public Map<String, Long> counts() {
    Map<String, Long> out = new LinkedHashMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  /**
   * Why this host cannot ping (no addresses, no tool), or why the tool could not ping from a port
   * when it last tried ({@code npu1: ...}); null while every port pings.
   */
  public String lastError() {
    if (problem != null) {
      return problem;
    }
    return errors.entrySet().stream()
        .min(Map.Entry.comparingByKey())
        .map(e -> "npu" + e.getKey() + ": " + e.getValue())
        .orElse(null);
  }

  @Override
  public void close() {
    closed = true;
    synchronized (turn) {
      turn.notifyAll();
    }
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
