package io.linkwatch.passive;

import io.linkwatch.host.HostPaths;
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
 */
public final class PassiveWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PassiveWatcher.class);

  private final PassiveConfig config;
  private final PassiveSource library;
  private final WatcherProcess watcher;
  private final PcieLinkReader pcie;
  private final InfinibandSysfs nics;
  private final PassiveStore store;
  private final ActiveProbes active;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "passive-watcher");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param watcher the vendor library's watcher process, or null when that source is off
   * @param pcie the sysfs reader, or null when that source is off
   * @param nics the adapters' port reader, or null when that source is off
   */
  public PassiveWatcher(
      PassiveConfig config,
      Backend backend,
      WatcherProcess watcher,
      PcieLinkReader pcie,
      InfinibandSysfs nics,
      PassiveStore store,
      ActiveProbes active) {
    this.config = config;
    this.library = PassiveSource.libraryOf(backend);
    this.watcher = watcher;
    this.pcie = pcie;
    this.nics = nics;
    this.store = store;
    this.active = active;
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
    if (watcher == null && pcie == null && nics == null) {
      return null;
    }
    return new PassiveWatcher(p, backend, watcher, pcie, nics, store, active);
  }

  /** Reads at once, then every interval. */
  public void start() {
    long every = config.interval().toMillis();
    thread.scheduleWithFixedDelay(this::safeRound, 0, every, TimeUnit.MILLISECONDS);
    log.info(
        "passive watching: every {} ms, sources {}",
        every,
        config.sources().stream().map(PassiveSource::id).sorted().toList());
  }

  private void safeRound() {
    try {
      round();
    } catch (RuntimeException e) {
      // One bad round must not end the schedule (a ScheduledExecutorService stops on a throw).
      log.warn("passive round failed: {}", e.toString());
    }
  }

  /** One round of every source; public for tests that drive rounds themselves. */
  public void round() {
    if (watcher != null) {
      vendorRound();
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
      store.recordNicPorts(nics.read());
    } catch (java.io.IOException | RuntimeException e) {
      log.debug("passive: infiniband ports: {}", e.toString());
      store.recordNicFailure();
    }
    store.recordRound(PassiveSource.INFINIBAND, (System.nanoTime() - started) / 1e9);
  }

  private void vendorRound() {
    long started = System.nanoTime();
    Optional<WatcherProcess.Outcome> notReady = watcher.start(config.deadline());
    if (notReady.isPresent()) {
      WatcherProcess.Outcome o = notReady.get();
      store.recordFailure(
          library,
          store.knownDevices(library),
          o.result().equals("timeout") ? ReadResult.TIMEOUT : ReadResult.ERROR,
          o.error(),
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
      WatcherProcess.Outcome outcome = watcher.round(skip, config.deadline());
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
    if (watcher != null) {
      watcher.close();
    }
  }
}
