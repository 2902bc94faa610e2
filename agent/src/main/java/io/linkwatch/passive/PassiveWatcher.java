package io.linkwatch.passive;

import io.linkwatch.host.HostPaths;
import io.linkwatch.passive.nic.HccnTool;
import io.linkwatch.passive.nic.InfinibandSysfs;
import io.linkwatch.passive.pcie.PcieLinkReader;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every device's link counters every {@code passive.interval}, busy or not, on a thread of
 * its own: the vendor library through the {@link WatcherProcess} (each round under {@code
 * passive.deadline}), then the PCIe hops of each device from sysfs. Devices an active probe is
 * measuring are left out of the vendor round and said so in the status. Nothing here waits on
 * {@code /metrics}, and nothing there waits on this: results go to the {@link PassiveStore}.
 *
 * <p>A round that hangs costs this thread one deadline; the watcher is replaced at the next round.
 * The NPUs' own ports ({@code hccn_tool}) are read on a second thread, one device at a time and
 * never while a probe measures that device, so a wedged tool delays nothing else.
 */
public final class PassiveWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PassiveWatcher.class);

  private final PassiveConfig config;
  private final PassiveSource library;
  private final WatcherProcess watcher;
  private final PcieLinkReader pcie;
  private final InfinibandSysfs nics;
  private final HccnTool hccn;
  private final PassiveStore store;
  private final ActiveProbes active;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "passive-watcher");
            t.setDaemon(true);
            return t;
          });
  private final ScheduledExecutorService hccnThread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "passive-hccn-tool");
            t.setDaemon(true);
            return t;
          });
  private volatile boolean hccnAbsentLogged;

  /**
   * The first device the last hccn_tool round had no time left for, where the next round starts: a
   * device whose calls hang every round then delays the others' reads, but starves none of them.
   * Null: start at the first device. Only the hccn_tool thread uses it.
   */
  private Integer hccnResumeAt;

  /**
   * @param watcher the vendor library's watcher process, or null when that source is off
   * @param pcie the sysfs reader, or null when that source is off
   * @param nics the adapters' port reader, or null when that source is off
   * @param hccn the NPUs' port reader, or null when that source is off
   */
  public PassiveWatcher(
      PassiveConfig config,
      Backend backend,
      WatcherProcess watcher,
      PcieLinkReader pcie,
      InfinibandSysfs nics,
      HccnTool hccn,
      PassiveStore store,
      ActiveProbes active) {
    this.config = config;
    this.library = PassiveSource.libraryOf(backend);
    this.watcher = watcher;
    this.pcie = pcie;
    this.nics = nics;
    this.hccn = hccn;
    this.store = store;
    this.active = active;
    if (watcher != null) {
      store.watcherFootprint(watcher::footprint);
    }
  }

  /**
   * The watcher {@code p} asks for on {@code backend}, its watcher process started with {@code
   * javaOptions} and sysfs read under {@code hostPaths}; or null when passive watching is off
   * ({@code store} null) or every source is. It takes these pieces rather than the agent's whole
   * configuration so that passive/ does not depend on config/, which sits above it.
   */
  public static PassiveWatcher of(
      PassiveConfig p,
      Backend backend,
      List<String> javaOptions,
      HostPaths hostPaths,
      PassiveStore store,
      ActiveProbes active) {
    if (store == null) {
      return null;
    }
    PassiveSource library = PassiveSource.libraryOf(backend);
    WatcherProcess watcher = p.reads(library) ? new WatcherProcess(backend, javaOptions) : null;
    PcieLinkReader pcie = p.reads(PassiveSource.SYSFS) ? new PcieLinkReader(hostPaths) : null;
    InfinibandSysfs nics =
        p.reads(PassiveSource.INFINIBAND) ? new InfinibandSysfs(hostPaths.sysfs()) : null;
    HccnTool hccn =
        p.reads(PassiveSource.HCCN_TOOL) && PassiveSource.HCCN_TOOL.serves(backend)
            ? new HccnTool(p.hccnTool(), p.hccnToolTimeout(), System.getenv())
            : null;
    if (watcher == null && pcie == null && nics == null && hccn == null) {
      return null;
    }
    return new PassiveWatcher(p, backend, watcher, pcie, nics, hccn, store, active);
  }

  /** Reads at once, then every interval. */
  public void start() {
    long every = config.interval().toMillis();
    thread.scheduleWithFixedDelay(this::safeRound, 0, every, TimeUnit.MILLISECONDS);
    if (hccn != null) {
      hccnThread.schedule(this::hccnSchedule, 0, TimeUnit.MILLISECONDS);
    }
    log.info(
        "passive watching: every {} ms, sources {}",
        every,
        config.sources().stream().map(PassiveSource::id).sorted().toList());
  }

  private void safeRound() {
    try {
      libraryAndSysfsRound(true);
    } catch (RuntimeException e) {
      // One bad round must not end the schedule (a ScheduledExecutorService stops on a throw).
      log.warn("passive round failed: {}", e.toString());
    }
  }

  /**
   * One round of every source, the NPUs' ports last (they are read for the devices the library
   * found); public for tests and {@code check}, which drive rounds themselves.
   */
  public void round() {
    // one round and no next one: a watcher not started within the deadline is a failed read
    libraryAndSysfsRound(false);
    if (hccn != null) {
      hccnRound();
    }
  }

  private void libraryAndSysfsRound(boolean moreRounds) {
    if (watcher != null) {
      vendorRound(moreRounds);
    }
    if (pcie != null) {
      sysfsRound();
    }
    if (nics != null) {
      nicRound();
    }
  }

  /**
   * The adapters' ports, in the agent's own process like the PCIe hops: plain sysfs files, no
   * device call, nothing an active probe's measurement would feel.
   */
  private void nicRound() {
    long started = System.nanoTime();
    try {
      store.recordNicPorts(PassiveSource.INFINIBAND, nics.read(store.pciAddresses()));
    } catch (java.io.IOException | RuntimeException e) {
      log.debug("passive: infiniband ports: {}", e.toString());
      store.recordNicFailure(PassiveSource.INFINIBAND);
    }
    store.recordRound(PassiveSource.INFINIBAND, (System.nanoTime() - started) / 1e9);
  }

  /**
   * The NPUs' ports every interval; every second until the devices are known (DCMI's first round
   * needs a watcher process started; with DCMI off, the topology probe's first run names them), so
   * the first reading is not an interval late.
   */
  private void hccnSchedule() {
    long next = config.interval().toMillis();
    try {
      if (!hccnRound()) {
        next = Math.min(next, 1000);
      }
    } catch (RuntimeException e) {
      log.warn("passive hccn_tool round failed: {}", e.toString());
    }
    if (!hccnThread.isShutdown()) {
      hccnThread.schedule(this::hccnSchedule, next, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Each device's port through {@code hccn_tool}, one device at a time, all under one deadline.
   * Returns false when there was no device to read yet.
   */
  private boolean hccnRound() {
    List<Integer> devices = store.npuPortDevices();
    if (devices.isEmpty()) {
      return false;
    }
    Optional<String> absent = hccn.absent();
    if (absent.isPresent()) {
      // not an Ascend host with the driver's tools (or the sim without its stand-in): nothing to
      // read, skip or fail, so no read state at all
      hccnAbsent(absent.get());
      return true;
    }
    long started = System.nanoTime();
    long deadline = started + config.deadline().toNanos();
    List<Integer> order = startingAt(devices, hccnResumeAt);
    hccnResumeAt = null;
    for (int device : order) {
      if (!active.beginDeviceRead(device)) {
        store.recordSkipped(
            PassiveSource.HCCN_TOOL,
            List.of(device),
            active.measuring().map(PassiveWatcher::why).orElse("an active probe was measuring it"));
        continue;
      }
      HccnTool.Read read;
      try {
        read = hccn.read(device, deadline, store.npuPort(device).orElse(null));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true;
      } finally {
        active.endRead();
      }
      if (read instanceof HccnTool.Port p) {
        store.recordDevicePort(PassiveSource.HCCN_TOOL, device, p.port());
      } else if (read instanceof HccnTool.Failed f) {
        log.debug("passive: device {}: {}: {}", device, f.call(), f.reason());
        if (f.call() == null && hccnResumeAt == null) {
          hccnResumeAt = device; // not reached this round: first in the next
        }
        store.recordDevicePortFailure(
            PassiveSource.HCCN_TOOL,
            device,
            f.timedOut() ? ReadResult.TIMEOUT : ReadResult.ERROR,
            f.call() == null ? f.reason() : f.call() + ": " + f.reason(),
            f.call());
      } else if (read instanceof HccnTool.Absent a) {
        hccnAbsent(a.reason()); // removed since the round began
        return true;
      }
    }
    store.recordRound(PassiveSource.HCCN_TOOL, (System.nanoTime() - started) / 1e9);
    return true;
  }

  /** {@code devices} in order from {@code first} (when it is one of them), wrapping around. */
  static List<Integer> startingAt(List<Integer> devices, Integer first) {
    int i = first == null ? -1 : devices.indexOf(first);
    if (i <= 0) {
      return devices;
    }
    List<Integer> out = new ArrayList<>(devices.subList(i, devices.size()));
    out.addAll(devices.subList(0, i));
    return out;
  }

  /** Says once, at INFO, why the NPUs' ports are not read. */
  private void hccnAbsent(String reason) {
    if (!hccnAbsentLogged) {
      hccnAbsentLogged = true;
      log.info("passive: NPU ports not read: {}", reason);
    }
  }

  /**
   * The library's links. A watcher not ready within the deadline is left to start when {@code
   * moreRounds} will ask again (the scheduled rounds); for a single round (a check) it is a failed
   * read, as a hang would be.
   */
  private void vendorRound(boolean moreRounds) {
    long started = System.nanoTime();
    Optional<WatcherProcess.Outcome> notReady = watcher.start(config.deadline());
    if (notReady.isPresent()) {
      WatcherProcess.Outcome o = notReady.get();
      if (o.starting() && moreRounds) {
        // no reading and no failure yet: the next round asks again, the sysfs reads go on
        log.debug("passive: {}", o.error());
        return;
      }
      store.recordFailure(
          library,
          store.knownDevices(library),
          o.result().equals("timeout") || o.starting() ? ReadResult.TIMEOUT : ReadResult.ERROR,
          o.starting()
              ? "the watcher did not open the runtime within the read's deadline of "
                  + io.linkwatch.util.Durations.format(config.deadline())
              : o.error(),
          o.call());
      store.recordRound(library, (System.nanoTime() - started) / 1e9);
      return;
    }
    Optional<ActiveProbes.Measurement> measuring;
    try {
      // Between two probe runs rather than never: probes run back to back in the first minutes.
      measuring = active.beginRead(config.interval());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    long readStarted = System.nanoTime();
    try {
      List<Integer> known = store.knownDevices(library);
      if (measuring.isPresent() && measuring.get().allDevices()) {
        store.recordSkipped(library, known, why(measuring.get()));
        return;
      }
      List<Integer> skip =
          measuring.map(m -> new ArrayList<>(m.devices())).orElseGet(ArrayList::new);
      // the NPUs' ports through DCMI where it answers, for the hccn_tool reader to prefer
      WatcherProcess.Outcome outcome =
          watcher.round(skip, hccn != null && config.npuPortsThroughDcmi(), config.deadline());
      if (outcome.round() == null) {
        List<Integer> failed = new ArrayList<>(known);
        failed.removeAll(skip);
        store.recordFailure(
            library,
            failed,
            outcome.result().equals("timeout") ? ReadResult.TIMEOUT : ReadResult.ERROR,
            outcome.error(),
            outcome.call());
        return;
      }
      for (DeviceLinks reading : outcome.round().readings()) {
        store.recordLinks(reading);
        if (reading.failed()) {
          log.debug("passive: device {}: {}", reading.device(), reading.error());
        }
      }
      int devices = outcome.round().devices();
      measuring.ifPresent(
          m ->
              store.recordSkipped(
                  library, skip.stream().filter(d -> d < devices).toList(), why(m)));
    } finally {
      active.endRead();
      store.recordRound(library, (System.nanoTime() - readStarted) / 1e9);
    }
  }

  private static String why(ActiveProbes.Measurement m) {
    return "the " + m.probe() + " probe was measuring the device";
  }

  private void sysfsRound() {
    long started = System.nanoTime();
    for (Map.Entry<Integer, String> e : store.pciAddresses().entrySet()) {
      store.recordPcie(e.getKey(), e.getValue(), pcie.read(e.getValue()));
    }
    store.recordRound(PassiveSource.SYSFS, (System.nanoTime() - started) / 1e9);
  }

  @Override
  public void close() {
    thread.shutdownNow();
    hccnThread.shutdownNow();
    if (watcher != null) {
      watcher.close();
    }
  }
}
