package io.linkwatch.metrics;

import io.linkwatch.config.SeriesSettings.LinkCounters;
import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.passive.DeviceState;
import io.linkwatch.passive.LinkState;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.ReadResult;
import io.linkwatch.passive.WatcherProcess;
import io.linkwatch.passive.pcie.AerSeverity;
import io.linkwatch.passive.pcie.PcieHop;
import io.linkwatch.verdict.InactiveLink;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The passive readings: link state, lanes, traffic and error counters from the vendor library, PCIe
 * hops from sysfs, and the health of the reads themselves, e.g.
 *
 * <pre>
 * linkwatch_link_up{device="0",link="3",link_type="HCCS",peer="3"} 1.0
 * linkwatch_link_lanes{device="0",link="3",link_type="HCCS",peer="3"} 2.0
 * linkwatch_link_lanes_max{device="0",link="3",link_type="HCCS",peer="3"} 4.0
 * linkwatch_link_transmit_bytes_total{device="0",link="3",link_type="HCCS",peer="3"} 1.62468E6
 * linkwatch_link_errors_total{device="0",kind="crc",link="3",link_type="HCCS",peer="3"} 12.0
 * linkwatch_pcie_link_width{device="0",pci_address="0000:c1:00.0",role="device"} 16.0
 * linkwatch_pcie_aer_errors_total{device="0",pci_address="0000:c0:01.0",role="root_port",severity="fatal"} 0.0
 * linkwatch_passive_read_success{device="0",source="dcmi"} 1.0
 * </pre>
 *
 * Counters stay counters: a driver reload resets them and Prometheus' {@code rate()} handles it; a
 * reading the product does not support has no series, and a failed read removes its device's. With
 * {@code series.link_counters: per_device} the traffic and error counters are summed over each
 * device's links of one type and carry no {@code link} or {@code peer} label.
 */
final class PassiveMetrics {
  static final String LINK_UP = "linkwatch_link_up";
  static final String INACTIVE_BY_DESIGN = "linkwatch_link_inactive_by_design";
  static final String LANES = "linkwatch_link_lanes";
  static final String LANES_MAX = "linkwatch_link_lanes_max";
  static final String TRANSMIT = "linkwatch_link_transmit_bytes";
  static final String RECEIVE = "linkwatch_link_receive_bytes";
  static final String ERRORS = "linkwatch_link_errors";
  static final String PCIE_SPEED = "linkwatch_pcie_link_speed_transfers_per_second";
  static final String PCIE_MAX_SPEED = "linkwatch_pcie_link_max_speed_transfers_per_second";
  static final String PCIE_WIDTH = "linkwatch_pcie_link_width";
  static final String PCIE_MAX_WIDTH = "linkwatch_pcie_link_max_width";
  static final String PCIE_AER = "linkwatch_pcie_aer_errors";
  static final String PCIE_REPLAYS = "linkwatch_pcie_replays";
  static final String READ_SUCCESS = "linkwatch_passive_read_success";
  static final String READS = "linkwatch_passive_reads";
  static final String READ_DURATION = "linkwatch_passive_read_duration_seconds";
  static final String LAST_READ = "linkwatch_passive_last_read_timestamp_seconds";
  static final String INTERVAL = "linkwatch_passive_interval_seconds";
  static final String FAILED_CALL = "linkwatch_passive_failed_call";
  static final String WATCHER_RSS = "linkwatch_passive_watcher_resident_memory_bytes";
  static final String WATCHER_CPU = "linkwatch_passive_watcher_cpu_seconds";
  static final String WATCHER_STARTS = "linkwatch_passive_watcher_starts";

  private static final String READ = " Values come from the last passive read.";

  private PassiveMetrics() {}

  /** Which links their product leaves inactive by design, for this scrape's inventory. */
  record InactiveByDesign(List<InactiveLink> table, Map<Integer, String> deviceNames) {
    boolean covers(int device, LinkState l) {
      return InactiveLink.find(table, deviceNames.get(device), l.linkType(), l.link()).isPresent();
    }
  }

  static void write(
      PassiveStore store,
      double intervalSeconds,
      InactiveByDesign inactive,
      LinkCounters counters,
      MetricFamilies f) {
    List<DeviceState> states = store.states();
    links(states, inactive, counters, f);
    pcie(states, f);
    health(store, states, intervalSeconds, f);
  }

  private record LinkKey(String device, String link, String linkType, String peer) {
    String[] labels() {
      return link == null
          ? new String[] {"device", device, "link_type", linkType}
          : new String[] {"device", device, "link", link, "link_type", linkType, "peer", peer};
    }

    /** The key its counters are summed under: the link itself, or its device's links of a type. */
    LinkKey countedAs(LinkCounters counters) {
      return counters == LinkCounters.PER_DEVICE ? new LinkKey(device, null, linkType, null) : this;
    }
  }

  private record ErrorKey(LinkKey link, String kind) {}

  private static void links(
      List<DeviceState> states,
      InactiveByDesign inactive,
      LinkCounters counters,
      MetricFamilies f) {
    MetricFamilies.Gauge up =
        f.gauge(
            LINK_UP, "1 if the link is up, 0 if the vendor library says it is down." + READ, null);
    MetricFamilies.Gauge byDesign =
        f.gauge(
            INACTIVE_BY_DESIGN,
            "1 for a link its product leaves inactive by design (an inactive_links row): its"
                + " state raises no alert and no finding.",
            null);
    MetricFamilies.Gauge lanes =
        f.gauge(
            LANES, "Lanes the link uses now (fewer than its maximum: downtrained)." + READ, null);
    MetricFamilies.Gauge lanesMax =
        f.gauge(LANES_MAX, "Lanes the link has when fully trained." + READ, null);
    Map<LinkKey, Long> tx = new LinkedHashMap<>();
    Map<LinkKey, Long> rx = new LinkedHashMap<>();
    Map<ErrorKey, Long> errors = new LinkedHashMap<>();
    Map<Integer, Long> replays = new LinkedHashMap<>();
    for (DeviceState d : states) {
      if (d.pcieReplays() != null) {
        replays.put(d.device(), d.pcieReplays());
      }
      for (LinkState l : d.links()) {
        LinkKey key = new LinkKey(String.valueOf(d.device()), l.link(), l.linkType(), l.peer());
        if (l.up() != null) {
          up.add(l.up() ? 1 : 0, key.labels());
        }
        if (inactive.covers(d.device(), l)) {
          byDesign.add(1, key.labels());
        }
        if (l.lanes() != null) {
          lanes.add(l.lanes(), key.labels());
        }
        if (l.lanesMax() != null) {
          lanesMax.add(l.lanesMax(), key.labels());
        }
        // Per device, a sum of counters is a counter: each part only grows, and a driver reload
        // resets them all at once (rate() sees one reset, as it does for one link's).
        LinkKey counted = key.countedAs(counters);
        if (l.transmitBytes() != null) {
          tx.merge(counted, l.transmitBytes(), Long::sum);
        }
        if (l.receiveBytes() != null) {
          rx.merge(counted, l.receiveBytes(), Long::sum);
        }
        l.errors().forEach((kind, n) -> errors.merge(new ErrorKey(counted, kind), n, Long::sum));
      }
    }
    f.counter(
        TRANSMIT,
        "Bytes the device sent over the link (HCCS: 20-byte flits).",
        tx,
        LinkKey::labels);
    f.counter(RECEIVE, "Bytes the device received over the link.", rx, LinkKey::labels);
    f.counter(
        ERRORS,
        "Link errors by kind: crc and retry (HCCS), crc_tx and crc_rx (SIO), retry, recovery,"
            + " crc_flit and crc_data (NVLink).",
        errors,
        k -> MetricFamilies.withLabel(k.link().labels(), "kind", k.kind()));
    f.counter(
        PCIE_REPLAYS,
        "PCIe replays of the device's link, as the vendor library counts them.",
        replays,
        d -> new String[] {"device", String.valueOf(d)});
  }

  private record HopKey(int device, String address, String role) {
    String[] labels() {
      return new String[] {"device", String.valueOf(device), "pci_address", address, "role", role};
    }
  }

  private record AerKey(HopKey hop, AerSeverity severity) {}

  private static void pcie(List<DeviceState> states, MetricFamilies f) {
    MetricFamilies.Gauge speed =
        f.gauge(PCIE_SPEED, "PCIe link speed now, in transfers per second." + READ, null);
    MetricFamilies.Gauge maxSpeed =
        f.gauge(PCIE_MAX_SPEED, "PCIe link speed the hop supports." + READ, null);
    MetricFamilies.Gauge width = f.gauge(PCIE_WIDTH, "PCIe lanes in use now." + READ, null);
    MetricFamilies.Gauge maxWidth =
        f.gauge(PCIE_MAX_WIDTH, "PCIe lanes the hop supports." + READ, null);
    Map<AerKey, Long> aer = new LinkedHashMap<>();
    for (DeviceState d : states) {
      for (PcieHop h : d.pcie()) {
        HopKey key = new HopKey(d.device(), h.pciAddress(), h.role().label());
        h.speedTransfersPerSecond().ifPresent(v -> speed.add(v, key.labels()));
        h.maxSpeedTransfersPerSecond().ifPresent(v -> maxSpeed.add(v, key.labels()));
        h.width().ifPresent(v -> width.add(v, key.labels()));
        h.maxWidth().ifPresent(v -> maxWidth.add(v, key.labels()));
        h.aerTotals().forEach((severity, n) -> aer.put(new AerKey(key, severity), n));
      }
    }
    f.counter(
        PCIE_AER,
        "AER errors the hop reported, by severity (the TOTAL_ERR_* lines of its aer_dev_* files).",
        aer,
        k -> MetricFamilies.withLabel(k.hop().labels(), "severity", k.severity().label()));
  }

  private record ReadKeyLabels(String source, String result) {}

  private static void health(
      PassiveStore store, List<DeviceState> states, double intervalSeconds, MetricFamilies f) {
    MetricFamilies.Gauge success =
        f.gauge(
            READ_SUCCESS,
            "1 if the last passive read of the device by the source succeeded (or was skipped for"
                + " an active probe after one that did).",
            null);
    for (DeviceState d : states) {
      boolean ok =
          d.lastResult() == ReadResult.SUCCESS
              || (d.lastResult() == ReadResult.SKIPPED_ACTIVE_PROBE && d.lastSuccessMillis() > 0);
      String[] labels = {"device", String.valueOf(d.device()), "source", d.source().id()};
      success.add(ok ? 1 : 0, labels);
      if (!ok && d.failedCall() != null) {
        f.info(
            FAILED_CALL,
            "The library call the device's last passive read failed in (returned an error, hung or"
                + " crashed); absent when it succeeded.",
            MetricFamilies.withLabel(labels, "call", d.failedCall()));
      }
    }
    Map<ReadKeyLabels, Long> reads = new LinkedHashMap<>();
    store
        .readCounts()
        .forEach((k, n) -> reads.put(new ReadKeyLabels(k.source().id(), k.result().label()), n));
    f.counter(
        READS,
        "Passive reads of a device by a source, by result: success, error, timeout,"
            + " skipped_active_probe.",
        reads,
        k -> new String[] {"result", k.result(), "source", k.source()});
    MetricFamilies.Gauge duration =
        f.gauge(READ_DURATION, "Wall time of the source's last read round.", Unit.SECONDS);
    MetricFamilies.Gauge last =
        f.gauge(LAST_READ, "Unix time the source's last read round ended.", null);
    for (PassiveStore.RoundState r : store.rounds()) {
      duration.add(r.seconds(), "source", r.source().id());
      last.add(r.endedMillis() / 1e3, "source", r.source().id());
    }
    f.gauge(INTERVAL, "The configured passive.interval.", Unit.SECONDS).add(intervalSeconds);
    store.watcherFootprint().ifPresent(w -> watcher(w, f));
  }

  /**
   * The watcher process's own cost, so that the agent's whole footprint is on {@code /metrics}:
   * {@code process_*} covers the agent's JVM only.
   */
  private static void watcher(WatcherProcess.Footprint w, MetricFamilies f) {
    if (w.residentBytes() != null) {
      f.gauge(
              WATCHER_RSS,
              "Resident memory of the passive watcher process (VmRSS); absent while none runs.",
              Unit.BYTES)
          .add(w.residentBytes());
    }
    f.add(
        CounterSnapshot.builder()
            .name(WATCHER_CPU)
            .help("CPU time (user and system) of every passive watcher process this agent ran.")
            .unit(Unit.SECONDS)
            .dataPoint(CounterDataPointSnapshot.builder().value(w.cpuSecondsTotal()).build())
            .build());
    f.counter(
        WATCHER_STARTS,
        "Passive watcher processes started: one, unless a read hung, a watcher died or its start"
            + " timed out.",
        Map.of("", w.starts()),
        k -> new String[0]);
  }
}
