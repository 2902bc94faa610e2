package io.linkwatch.state;

import io.linkwatch.history.SeriesHistory;
import io.linkwatch.kubelet.DeviceHolder;
import io.linkwatch.kubelet.DeviceKeys;
import io.linkwatch.kubelet.PodLookup;
import io.linkwatch.probe.TargetDevices;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.ToleratedFailure;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The last result of every probe and target, and the run counters. Schedules write to it after each
 * run; scrapes and the status page only read immutable copies of it, so no request ever waits for
 * device work.
 *
 * <p>A run replaces its probe's targets: a target that a later run no longer reports (say, a pair
 * removed from the config) loses its series, while its counters stay, as counters should.
 */
public final class ResultStore {
  /** A run counter's key. */
  public record RunKey(String probe, String target, Outcome result) {}

  /** A tolerated failure counter's key. */
  public record ToleratedKey(String probe, String call) {}

  private final Clock clock;
  private final Map<String, Map<String, TargetStatus>> byProbe = new TreeMap<>();
  private final Map<RunKey, Long> runs = new LinkedHashMap<>();

  /** Seconds the probes held each device, summed over every run since the agent started. */
  private final Map<Integer, Double> deviceSeconds = new TreeMap<>();

  private final Map<String, String> skipped = new TreeMap<>();
  private final Map<ToleratedKey, Long> toleratedCounts =
      new TreeMap<>(Comparator.comparing(ToleratedKey::probe).thenComparing(ToleratedKey::call));
  private final Map<String, List<ToleratedFailure>> lastTolerated = new TreeMap<>();

  /** The last activity check of a device, and the probe whose run made it. */
  private record Check(DeviceActivity activity, String probe) {}

  private final Map<Integer, Check> devices = new TreeMap<>();
  private final Map<Integer, Long> memoryBaselines = new TreeMap<>();
  private long version;
  private List<io.linkwatch.state.CheckRecord> checks = List.of();
  private List<ShadowRecord> shadow = List.of();
  private List<String> runningJobs = List.of();
  private List<io.linkwatch.status.FindingEntry> findings = List.of();
  private PodLookup podLookup;
  private final Map<PodLookup.Result, Long> podLookups = new TreeMap<>();
  private volatile Consumer<List<DeviceActivity>> devicesChecked = a -> {};

  private final SeriesHistory history;

  public ResultStore(Clock clock) {
    this(clock, new SeriesHistory(SeriesHistory.DEFAULT_STEP));
  }

  /** With {@code history}, which is fed every run as it is recorded. */
  public ResultStore(Clock clock, SeriesHistory history) {
    this.clock = clock;
    this.history = history;
  }

  /** The charted figures of the runs recorded so far (it has its own lock). */
  public SeriesHistory history() {
    return history;
  }

  /**
   * The last {@code linkwatch check} of each level, as the checks left them beside the probe lock;
   * a change counts as a new version, so {@code /metrics} shows it at once.
   */
  public synchronized void recordChecks(List<io.linkwatch.state.CheckRecord> records) {
    if (!records.equals(checks)) {
      checks = List.copyOf(records);
      version++;
    }
  }

  public synchronized List<io.linkwatch.state.CheckRecord> checks() {
    return checks;
  }

  /** What the job-boundary kit would have done in shadow mode, as its commands counted it. */
  public synchronized void recordShadow(List<ShadowRecord> records) {
    shadow = List.copyOf(records);
  }

  public synchronized List<ShadowRecord> shadow() {
    return shadow;
  }

  /** The jobs running now, as their prologs' checks recorded them. */
  public synchronized void recordRunningJobs(List<String> jobs) {
    runningJobs = List.copyOf(jobs);
  }

  /**
   * The jobs running now: the Slurm jobs whose prolog's check kept a record and whose epilog has
   * not run, then the pods the kubelet said hold a device the last check found busy ({@code pod
   * NAMESPACE/NAME}, as {@link #holders} gives them: never from an answer older than the check).
   */
  public synchronized List<String> runningJobs() {
    Set<String> jobs = new LinkedHashSet<>(runningJobs);
    for (Check c : devices.values()) {
      for (DeviceHolder h : holders(c.activity())) {
        jobs.add("pod " + h.namespace() + "/" + h.pod());
      }
    }
    return List.copyOf(jobs);
  }

  /**
   * The findings of the agent's own verdict that stand now. Not a new version: they are judged from
   * the results, and a version that moved would have them judged again.
   */
  public synchronized void recordFindings(List<io.linkwatch.status.FindingEntry> standing) {
    findings = List.copyOf(standing);
  }

  public synchronized List<io.linkwatch.status.FindingEntry> findings() {
    return findings;
  }

  private java.util.function.Supplier<io.linkwatch.peer.PeerSnapshot> peers = () -> null;

  /**
   * Where the probes between servers are read from: their prober keeps its own results (it runs
   * beside the workers, not in them), and the status document takes them from there.
   */
  public synchronized void peers(java.util.function.Supplier<io.linkwatch.peer.PeerSnapshot> s) {
    peers = s;
  }

  private java.util.function.Supplier<List<io.linkwatch.status.PairEntry>> pairs = List::of;

  /** Where the two-host runs' last results are read from (their prober keeps them). */
  public synchronized void pairs(
      java.util.function.Supplier<List<io.linkwatch.status.PairEntry>> s) {
    pairs = s;
  }

  /** The last two-host run of each probe with each partner; empty when there are none. */
  public List<io.linkwatch.status.PairEntry> pairs() {
    java.util.function.Supplier<List<io.linkwatch.status.PairEntry>> s;
    synchronized (this) {
      s = pairs;
    }
    return s.get();
  }

  /** The probes between servers now; empty when none are configured. */
  public java.util.Optional<io.linkwatch.peer.PeerSnapshot> peers() {
    java.util.function.Supplier<io.linkwatch.peer.PeerSnapshot> s;
    synchronized (this) {
      s = peers;
    }
    return java.util.Optional.ofNullable(s.get());
  }

  /** Changes whenever something recorded changes what the store reports. */
  public synchronized long version() {
    return version;
  }

  /** Records a finished run (successful, failed, timed out: whatever each target's outcome). */
  public synchronized void record(ProbeRun run) {
    record(run, false);
  }

  /**
   * Records a run. A {@code retry} ran only the targets that waited for an idle device, so the
   * probe's other targets keep their last results; a full run replaces them.
   */
  public synchronized void record(ProbeRun run, boolean retry) {
    version++;
    double now = clock.millis() / 1e3;
    Map<String, TargetStatus> previous = byProbe.getOrDefault(run.probe(), Map.of());
    Map<String, TargetStatus> next = retry ? new TreeMap<>(previous) : new TreeMap<>();
    deviceTime(run).forEach((device, seconds) -> deviceSeconds.merge(device, seconds, Double::sum));
    for (TargetResult t : run.targets()) {
      TargetStatus before = previous.get(t.target());
      runs.merge(new RunKey(run.probe(), t.target(), t.outcome()), 1L, Long::sum);

      double lastSuccess =
          t.outcome() == Outcome.SUCCESS
              ? now
              : before == null ? 0 : before.lastSuccessEpochSeconds();
      TargetStatus status =
          new TargetStatus(
              run.probe(),
              t.target(),
              t.outcome(),
              t.error(),
              t.durationSeconds(),
              now,
              lastSuccess,
              t.measurements(),
              0,
              "",
              t.call());
      if (t.outcome().deferred()) {
        // The last run that measured (if any) stays what the target shows while it waits.
        double since =
            before != null && before.deferred() ? before.deferredSinceEpochSeconds() : now;
        status = (before != null ? before : status).deferredSince(since, t.error());
      }
      next.put(t.target(), status);
    }
    byProbe.put(run.probe(), next);
    history.record(run, retry, clock.millis());
    if (!retry) {
      if (run.skippedBecause().isEmpty()) {
        skipped.remove(run.probe());
      } else {
        skipped.put(run.probe(), run.skippedBecause());
      }
    }
    if (!run.tolerated().isEmpty() || !retry) {
      lastTolerated.put(run.probe(), run.tolerated());
    }
    for (ToleratedFailure f : run.tolerated()) {
      toleratedCounts.merge(new ToleratedKey(run.probe(), f.call()), 1L, Long::sum);
    }
    for (DeviceActivity a : run.devices()) {
      devices.put(a.device(), new Check(a, run.probe()));
      if (a.memoryUsedBytes() != null) {
        memoryBaselines.merge(a.device(), a.memoryUsedBytes(), Math::min);
      }
    }
    if (!run.devices().isEmpty()) {
      devicesChecked.accept(run.devices());
    }
  }

  /**
   * Who is told of each run's device checks (the kubelet lookup); it must not block, as it runs
   * while the store is locked.
   */
  public void onDevicesChecked(Consumer<List<DeviceActivity>> listener) {
    devicesChecked = listener;
  }

  /** Records what the kubelet said of the devices' holders (or why it said nothing). */
  public synchronized void recordPodLookup(PodLookup lookup) {
    version++;
    podLookup = lookup;
    if (lookup.result() != PodLookup.Result.ABSENT) {
      podLookups.merge(lookup.result(), 1L, Long::sum);
    }
  }

  /** The last kubelet lookup, if any took place. */
  public synchronized Optional<PodLookup> podLookup() {
    return Optional.ofNullable(podLookup);
  }

  /** Kubelet lookups so far by result; a missing socket is not counted (not on Kubernetes). */
  public synchronized Map<PodLookup.Result, Long> podLookupCounts() {
    return new TreeMap<>(podLookups);
  }

  /**
   * The pods the kubelet had allocated a busy device to, as a lookup made after that check found;
   * empty for an idle device, and while no lookup since the check has answered (an older answer
   * could name a pod that has gone).
   */
  public synchronized List<DeviceHolder> holders(DeviceActivity a) {
    if (!a.busy()
        || podLookup == null
        || podLookup.result() != PodLookup.Result.SUCCESS
        || podLookup.atMillis() < a.checkedAtMillis()) {
      return List.of();
    }
    return podLookup.holders().getOrDefault(a.device(), List.of());
  }

  /** Each device's product name, from the last topology results ({@code Ascend910B3}). */
  public synchronized Map<Integer, String> deviceNames() {
    Map<Integer, String> names = new java.util.TreeMap<>();
    for (Map<String, TargetStatus> targets : byProbe.values()) {
      for (TargetStatus t : targets.values()) {
        for (var m : t.measurements()) {
          if (m instanceof DeviceInfo d && d.name() != null) {
            names.put(d.device(), d.name());
          }
        }
      }
    }
    return names;
  }

  /** What the last topology results say of each device, for matching the kubelet's ids. */
  public synchronized List<DeviceKeys> deviceKeys() {
    List<DeviceKeys> keys = new ArrayList<>();
    for (Map<String, TargetStatus> targets : byProbe.values()) {
      for (TargetStatus t : targets.values()) {
        for (var m : t.measurements()) {
          if (m instanceof DeviceInfo d) {
            keys.add(
                new DeviceKeys(
                    d.device(),
                    d.physicalId() == null ? "" : String.valueOf(d.physicalId()),
                    d.uuid()));
          }
        }
      }
    }
    return keys;
  }

  /** The targets of a probe that wait for an idle device. */
  public synchronized List<String> deferredTargets(String probe) {
    return byProbe.getOrDefault(probe, Map.of()).values().stream()
        .filter(TargetStatus::deferred)
        .map(TargetStatus::target)
        .toList();
  }

  /** The last activity check of every device that was checked, by device. */
  public synchronized List<DeviceActivity> deviceActivity() {
    return devices.values().stream().map(Check::activity).toList();
  }

  /**
   * Devices that a check of another probe than {@code probe} found busy at or after {@code
   * sinceMillis}, by device.
   */
  public synchronized Map<Integer, DeviceActivity> busySeenByOthers(
      String probe, long sinceMillis) {
    Map<Integer, DeviceActivity> out = new TreeMap<>();
    devices.forEach(
        (device, c) -> {
          DeviceActivity a = c.activity();
          if (a.busy() && a.checkedAtMillis() >= sinceMillis && !probe.equals(c.probe())) {
            out.put(device, a);
          }
        });
    return out;
  }

  /** The least device memory in use seen per device: the idle baseline of the memory reading. */
  public synchronized Map<Integer, Long> memoryBaselines() {
    return Map.copyOf(memoryBaselines);
  }

  /**
   * Records a run that did not take place (lane busy, budget spent) against the probe's known
   * targets, or against the probe itself when it has never run. The last results stay.
   */
  public synchronized void recordSkip(String probe, Outcome why) {
    version++;
    List<String> targets = new ArrayList<>(byProbe.getOrDefault(probe, Map.of()).keySet());
    if (targets.isEmpty()) {
      targets.add(probe);
    }
    for (String target : targets) {
      runs.merge(new RunKey(probe, target, why), 1L, Long::sum);
    }
  }

  /** The targets of a probe's last run, for reporting a run that died without a result. */
  public synchronized List<String> knownTargets(String probe) {
    return new ArrayList<>(byProbe.getOrDefault(probe, Map.of()).keySet());
  }

  public synchronized List<TargetStatus> statuses() {
    List<TargetStatus> all = new ArrayList<>();
    byProbe.values().forEach(m -> all.addAll(m.values()));
    return all;
  }

  /**
   * The seconds one run held each device: each target's duration on the devices it names (the
   * targets run one after another). A run that failed before it knew its targets is reported on
   * every known target with the whole run's duration (so no series vanishes); that time is counted
   * once per device, not once per target.
   */
  static Map<Integer, Double> deviceTime(ProbeRun run) {
    Map<Integer, Double> out = new TreeMap<>();
    List<TargetResult> held = run.targets().stream().filter(t -> heldDevices(t.outcome())).toList();
    boolean oneFailure =
        held.size() > 1
            && held.stream()
                .allMatch(
                    t ->
                        t.outcome() != Outcome.SUCCESS
                            && t.measurements().isEmpty()
                            && t.durationSeconds() == held.get(0).durationSeconds()
                            && t.error().equals(held.get(0).error()));
    for (TargetResult t : held) {
      for (int device : TargetDevices.of(t.target())) {
        out.merge(device, t.durationSeconds(), oneFailure ? Math::max : Double::sum);
      }
    }
    return out;
  }

  /**
   * Whether a target with this outcome took its devices: it ran (succeeded, failed, timed out, or
   * ran and was discarded because a job appeared), rather than being skipped before it started.
   */
  private static boolean heldDevices(Outcome outcome) {
    return switch (outcome) {
      case SUCCESS, ERROR, TIMEOUT, DISCARDED_DEVICE_BUSY -> true;
      case SKIPPED_BUSY, SKIPPED_BUDGET, SKIPPED_DEVICE_BUSY -> false;
    };
  }

  /**
   * The seconds probes have held each device since the agent started: each run's time on the
   * devices its target names (a p2p target 0->3: devices 0 and 3; a target naming none, the
   * topology's, takes no device time).
   */
  public synchronized Map<Integer, Double> probeDeviceSeconds() {
    return Map.copyOf(deviceSeconds);
  }

  public synchronized Map<RunKey, Long> runCounts() {
    return new LinkedHashMap<>(runs);
  }

  /** Tolerated driver call failures so far, by probe and call. */
  public synchronized Map<ToleratedKey, Long> toleratedCounts() {
    return new LinkedHashMap<>(toleratedCounts);
  }

  /**
   * What the tolerated failures of each probe's last run that had any said, by probe: {@code
   * aclrtResetDevice(1) returned 507899: ...}.
   */
  public synchronized Map<String, List<String>> lastTolerated() {
    Map<String, List<String>> out = new TreeMap<>();
    lastTolerated.forEach(
        (probe, failures) -> {
          if (!failures.isEmpty()) {
            out.put(probe, failures.stream().map(ToleratedFailure::detail).toList());
          }
        });
    return out;
  }

  /** Probes whose last run found nothing to do on this machine, with the reason. */
  public synchronized Map<String, String> notApplicable() {
    return new TreeMap<>(skipped);
  }
}
