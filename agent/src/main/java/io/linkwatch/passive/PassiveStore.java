package io.linkwatch.passive;

import io.linkwatch.passive.nic.NicPort;
import io.linkwatch.passive.pcie.PcieHop;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.runtime.telemetry.NpuPortReading;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The last passive reading of every device by every source, and the read counters. The watcher's
 * thread writes; scrapes and the status read immutable copies, so no request waits for a read.
 * Counters are unwrapped here ({@link CounterUnwrapper}), where they outlive any watcher process.
 */
public final class PassiveStore {
  /** A read counter's key. */
  public record ReadKey(PassiveSource source, ReadResult result) {}

  /** The last round of one source: when it ended and how long it took. */
  public record RoundState(PassiveSource source, long endedMillis, double seconds) {}

  private final Clock clock;
  private final CounterUnwrapper unwrapper = new CounterUnwrapper();
  private final LinkErrorRates errorRates = new LinkErrorRates();
  private final Map<PassiveSource, Map<Integer, DeviceState>> devices = new TreeMap<>();
  private final Map<ReadKey, Long> reads = new LinkedHashMap<>();
  private final Map<PassiveSource, RoundState> rounds = new TreeMap<>();
  private final Map<String, NicState> nics = new TreeMap<>();
  private final Set<PassiveSource> nicReadersSeen = EnumSet.noneOf(PassiveSource.class);
  private volatile PortExpectations expectations = PortExpectations.NONE;
  private volatile java.util.function.Supplier<WatcherProcess.Footprint> watcher;

  /** What DCMI's last read gave of each NPU's own port, for the hccn_tool reader to prefer. */
  private final Map<Integer, NpuPortReading> npuPorts = new TreeMap<>();

  /** Ports seen up since the agent started, kept across failed reads that drop a port's state. */
  private final Set<String> nicsEverUp = new HashSet<>();

  private long version;

  public PassiveStore(Clock clock) {
    this.clock = clock;
  }

  /** Where the watcher process's cost is read from, when there is one. */
  public void watcherFootprint(java.util.function.Supplier<WatcherProcess.Footprint> footprint) {
    this.watcher = footprint;
  }

  /** The watcher process's cost now; empty when this agent has none (its source is off). */
  public Optional<WatcherProcess.Footprint> watcherFootprint() {
    java.util.function.Supplier<WatcherProcess.Footprint> w = watcher;
    return w == null ? Optional.empty() : Optional.of(w.get());
  }

  /** Changes whenever something recorded changes what the store reports. */
  public synchronized long version() {
    return version;
  }

  /** A device read by a vendor library, whatever its outcome. */
  public synchronized void recordLinks(DeviceLinks reading) {
    PassiveSource source =
        PassiveSource.valueOf(reading.source().toUpperCase(java.util.Locale.ROOT));
    long now = clock.millis();
    DeviceState before = devices(source).get(reading.device());
    boolean ok = !reading.failed();
    List<LinkState> links = new ArrayList<>();
    if (ok) {
      for (LinkReading l : reading.links()) {
        links.add(unwrap(source, reading.device(), l, now));
      }
    }
    devices(source)
        .put(
            reading.device(),
            new DeviceState(
                reading.device(),
                source,
                ok ? ReadResult.SUCCESS : ReadResult.ERROR,
                now,
                ok ? now : before == null ? 0 : before.lastSuccessMillis(),
                reading.error(),
                reading.failedCall(),
                null,
                reading.unsupported(),
                links,
                ok && reading.pcieReplays() != null
                    ? unwrapper.next(
                        List.of(source, reading.device(), "pcie_replay"), reading.pcieReplays(), 32)
                    : null,
                reading.pciAddress() != null
                    ? reading.pciAddress()
                    : before == null ? null : before.pciAddress(),
                List.of()));
    if (ok && reading.npuPort() != null) {
      npuPorts.put(reading.device(), reading.npuPort());
    } else {
      npuPorts.remove(reading.device());
    }
    count(source, ok ? ReadResult.SUCCESS : ReadResult.ERROR);
  }

  /**
   * What the library's last read of {@code device} gave of its own RoCE port; empty when that read
   * failed or gave none. A device skipped for an active probe keeps the reading of the read before.
   */
  public synchronized Optional<NpuPortReading> npuPort(int device) {
    return Optional.ofNullable(npuPorts.get(device));
  }

  /** A round of {@code source} that gave no reading (a hang, a dead watcher) for these devices. */
  public synchronized void recordFailure(
      PassiveSource source, List<Integer> failed, ReadResult result, String error, String call) {
    for (int device : failed) {
      unread(source, device, result, error, call, null);
    }
    if (failed.isEmpty()) {
      count(source, result);
    }
  }

  /**
   * Devices of {@code source} not read because an active probe measures them: the last links are
   * kept, marked with why they were not refreshed.
   */
  public synchronized void recordSkipped(PassiveSource source, List<Integer> skipped, String why) {
    for (int device : skipped) {
      unread(source, device, ReadResult.SKIPPED_ACTIVE_PROBE, null, null, why);
    }
  }

  /**
   * A device a round did not read: a skip keeps its last links (counters a few seconds old are
   * still true), a failure drops them (no series rather than stale ones).
   */
  private void unread(
      PassiveSource source, int device, ReadResult result, String error, String call, String why) {
    DeviceState before = devices(source).get(device);
    boolean keep = result == ReadResult.SKIPPED_ACTIVE_PROBE && before != null;
    if (!keep && source == PassiveSource.DCMI) {
      npuPorts.remove(device); // only DCMI's own failure: a failed hccn_tool read keeps it
    }
    devices(source)
        .put(
            device,
            new DeviceState(
                device,
                source,
                result,
                clock.millis(),
                before == null ? 0 : before.lastSuccessMillis(),
                error,
                call,
                why,
                before == null ? List.of() : before.unsupported(),
                keep ? before.links() : List.of(),
                keep ? before.pcieReplays() : null,
                before == null ? null : before.pciAddress(),
                List.of()));
    count(source, result);
  }

  /**
   * A device's PCIe hops from sysfs. An address sysfs does not list (a container without the host's
   * sysfs, a simulated device) is noted as unsupported: nothing to read there is no failed read.
   */
  public synchronized void recordPcie(int device, String address, List<PcieHop> hops) {
    long now = clock.millis();
    boolean found = !hops.isEmpty();
    devices(PassiveSource.SYSFS)
        .put(
            device,
            new DeviceState(
                device,
                PassiveSource.SYSFS,
                ReadResult.SUCCESS,
                now,
                now,
                null,
                null,
                null,
                found
                    ? List.of()
                    : List.of(address + " is not in sysfs (bus/pci/devices): no PCIe hops to read"),
                List.of(),
                null,
                address,
                hops));
    count(PassiveSource.SYSFS, ReadResult.SUCCESS);
  }

  /**
   * A port of an adapter to other servers as last read, and whether it was up at any read since the
   * agent started: a port down from the start may be unused by design, one that went down is not.
   */
  public record NicState(
      PassiveSource source,
      NicPort port,
      boolean wasUp,
      long lastReadMillis,
      Double expectedSpeedBitsPerSecond) {
    public NicState(PassiveSource source, NicPort port, boolean wasUp, long lastReadMillis) {
      this(source, port, wasUp, lastReadMillis, null);
    }
  }

  /**
   * What the ports should be ({@code expected_ports} and the shipped rows), applied as the ports
   * are asked for: the products are named by the topology probe, which may run after the first
   * reads.
   */
  public void expectPorts(PortExpectations expectations) {
    this.expectations = expectations;
  }

  /**
   * Every adapter port one read of {@code source} found; a port of that source no longer listed
   * (its adapter gone, its driver unloaded) is dropped, so its series go. Other sources' ports
   * stay.
   */
  public synchronized void recordNicPorts(PassiveSource source, List<NicPort> ports) {
    long now = clock.millis();
    Map<String, NicState> next = new TreeMap<>();
    for (NicPort p : ports) {
      next.put(p.name(), nicState(source, p, now));
    }
    nics.values().removeIf(n -> n.source() == source);
    nics.putAll(next);
    count(source, ReadResult.SUCCESS);
    version++;
  }

  private NicState nicState(PassiveSource source, NicPort p, long now) {
    nicReadersSeen.add(source);
    if (p.up()) {
      nicsEverUp.add(p.name());
    }
    return new NicState(source, p, nicsEverUp.contains(p.name()), now);
  }

  /**
   * An accelerator's own port, read by {@code source} (hccn_tool): replaces its last reading, and
   * its device's read state says the read succeeded.
   */
  public synchronized void recordDevicePort(PassiveSource source, int device, NicPort port) {
    long now = clock.millis();
    nics.put(port.name(), nicState(source, port, now));
    devices(source)
        .put(
            device,
            new DeviceState(
                device,
                source,
                ReadResult.SUCCESS,
                now,
                now,
                null,
                null,
                null,
                port.unsupported(),
                List.of(),
                null,
                null,
                List.of()));
    count(source, ReadResult.SUCCESS);
  }

  /**
   * An accelerator's port whose read failed: its series go (no stale reading), and its device's
   * read state names the call. Whether it was ever up is remembered for when it reads again.
   */
  public synchronized void recordDevicePortFailure(
      PassiveSource source, int device, ReadResult result, String error, String call) {
    nics.values()
        .removeIf(n -> n.source() == source && Integer.valueOf(device).equals(n.port().device()));
    unread(source, device, result, error, call, null);
  }

  /** A read of the adapters that failed (sysfs could not be listed): the last ports are kept. */
  public synchronized void recordNicFailure(PassiveSource source) {
    count(source, ReadResult.ERROR);
    version++;
  }

  /** Every port as last read, each with the speed it should train at where a row says. */
  public List<NicState> nicPorts() {
    List<NicState> read;
    synchronized (this) {
      read = List.copyOf(nics.values());
    }
    // outside the lock: the products come from the result store, read once for all ports
    PortExpectations e = expectations.now();
    return read.stream()
        .map(
            n ->
                new NicState(
                    n.source(),
                    n.port(),
                    n.wasUp(),
                    n.lastReadMillis(),
                    e.speedOf(n.source(), n.port().device())))
        .toList();
  }

  /** The count rows this host's products match, against the ports as last read. */
  public List<PortExpectations.PortCount> portCounts() {
    List<NicState> read;
    Set<PassiveSource> seen;
    synchronized (this) {
      read = List.copyOf(nics.values());
      seen = Set.copyOf(nicReadersSeen);
    }
    return expectations.counts(read, seen);
  }

  /** The end of a round of {@code source}, which took {@code seconds}. */
  public synchronized void recordRound(PassiveSource source, double seconds) {
    rounds.put(source, new RoundState(source, clock.millis(), seconds));
    version++;
  }

  /** The PCI address each device's vendor library gave, for the sysfs reads. */
  public synchronized Map<Integer, String> pciAddresses() {
    Map<Integer, String> out = new TreeMap<>();
    for (PassiveSource s : List.of(PassiveSource.DCMI, PassiveSource.NVML)) {
      devices(s)
          .forEach(
              (d, st) -> {
                if (st.pciAddress() != null) {
                  out.put(d, st.pciAddress());
                }
              });
    }
    return out;
  }

  /** Every device state, by source then device. */
  public synchronized List<DeviceState> states() {
    List<DeviceState> out = new ArrayList<>();
    devices.values().forEach(m -> out.addAll(m.values()));
    return out;
  }

  public synchronized Map<ReadKey, Long> readCounts() {
    return Map.copyOf(reads);
  }

  public synchronized List<RoundState> rounds() {
    return List.copyOf(rounds.values());
  }

  private LinkState unwrap(PassiveSource source, int device, LinkReading l, long nowMillis) {
    int bits = l.counterBits();
    Long tx =
        l.txUnits() == null
            ? null
            : unwrapper.next(key(source, device, l, "tx"), l.txUnits(), bits)
                * l.trafficUnitBytes();
    Long rx =
        l.rxUnits() == null
            ? null
            : unwrapper.next(key(source, device, l, "rx"), l.rxUnits(), bits)
                * l.trafficUnitBytes();
    Map<String, Long> errors = new TreeMap<>();
    l.errors()
        .forEach(
            (kind, raw) ->
                errors.put(kind, unwrapper.next(key(source, device, l, kind), raw, bits)));
    Double rate = errorRates.next(key(source, device, l, "errors"), nowMillis, errors);
    return new LinkState(
        l.link(), l.linkType(), l.peer(), l.up(), l.lanes(), l.lanesMax(), tx, rx, errors, rate);
  }

  private static List<Object> key(PassiveSource source, int device, LinkReading l, String name) {
    return List.of(source, device, l.linkType(), l.link(), name);
  }

  private Map<Integer, DeviceState> devices(PassiveSource source) {
    return devices.computeIfAbsent(source, s -> new TreeMap<>());
  }

  private void count(PassiveSource source, ReadResult result) {
    reads.merge(new ReadKey(source, result), 1L, Long::sum);
    version++;
  }

  /**
   * The devices whose own ports the hccn_tool reader reads: those DCMI lists, or, with the DCMI
   * source off, those the topology probe's inventory names.
   */
  public List<Integer> npuPortDevices() {
    List<Integer> listed = knownDevices(PassiveSource.DCMI);
    return listed.isEmpty() ? expectations.devices() : listed;
  }

  /** Devices that any source knows, for a failure that concerns all of them. */
  public synchronized List<Integer> knownDevices(PassiveSource source) {
    Set<Integer> all = new HashSet<>(devices(source).keySet());
    return all.stream().sorted().toList();
  }
}
