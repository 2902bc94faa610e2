package io.linkwatch.metrics;

import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.DeviceMemoryBandwidth;
import io.linkwatch.probe.result.HostBufferPages;
import io.linkwatch.probe.result.HostTransferBandwidth;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.P2pBandwidth;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the exposition from the {@link ResultStore} at scrape time. Metric names live here and
 * only here. A series exists only while its last measurement does: nothing is cached between
 * scrapes, so a failed run's series are simply gone at the next scrape.
 *
 * <p>Produces, for example:
 *
 * <pre>
 * linkwatch_p2p_bandwidth_bytes_per_second{dst="1",link="SIO",size_bytes="268435456",src="0"} 1.55E11
 * linkwatch_probe_success{probe="p2p",target="0->1"} 1.0
 * </pre>
 */
public final class LinkwatchCollector implements MultiCollector {
  private static final String LAST_RUN = " Values come from the last probe run.";

  private final ResultStore store;
  private final Map<String, Double> intervalSeconds;
  private final String version;
  private final String backend;
  private final double deferredAlertAfterSeconds;

  /**
   * @param deferredAlertAfterSeconds how long a target may wait for an idle device before the alert
   *     rules say so ({@code busy.alert_after})
   */
  public LinkwatchCollector(
      ResultStore store,
      Map<String, Double> intervalSeconds,
      String version,
      String backend,
      double deferredAlertAfterSeconds) {
    this.store = store;
    this.intervalSeconds = Map.copyOf(intervalSeconds);
    this.version = version;
    this.backend = backend;
    this.deferredAlertAfterSeconds = deferredAlertAfterSeconds;
  }

  /** Data points of one gauge family, in the order they were added. */
  private static final class Family {
    final String name;
    final String help;
    final Unit unit;
    final List<GaugeDataPointSnapshot> points = new ArrayList<>();

    Family(String name, String help, Unit unit) {
      this.name = name;
      this.help = help;
      this.unit = unit;
    }

    void add(double value, String... labels) {
      points.add(GaugeDataPointSnapshot.builder().labels(Labels.of(labels)).value(value).build());
    }

    GaugeSnapshot snapshot() {
      GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
      if (unit != null) {
        b.unit(unit);
      }
      points.forEach(b::dataPoint);
      return b.build();
    }
  }

  private final class Families {
    final Map<String, Family> gauges = new LinkedHashMap<>();
    final Map<String, InfoSnapshot.Builder> infos = new LinkedHashMap<>();
    final List<SummarySnapshot.SummaryDataPointSnapshot> summaries = new ArrayList<>();

    Family gauge(String name, String help, Unit unit) {
      return gauges.computeIfAbsent(name, n -> new Family(n, help, unit));
    }

    /** A family whose values are figures of the last run, and whose HELP says so. */
    Family result(String name, String help, Unit unit) {
      return gauge(name, help + LAST_RUN, unit);
    }

    void info(String name, String help, String... labels) {
      infos
          .computeIfAbsent(name, n -> InfoSnapshot.builder().name(n).help(help))
          .dataPoint(InfoDataPointSnapshot.builder().labels(Labels.of(labels)).build());
    }
  }

  @Override
  public MetricSnapshots collect() {
    Families f = new Families();
    List<TargetStatus> statuses = store.statuses();
    for (TargetStatus s : statuses) {
      for (Measurement m : s.measurements()) {
        addMeasurement(f, m);
      }
    }
    addHealth(f, statuses);
    addDeviceActivity(f, store.deviceActivity());
    List<MetricSnapshot> out = new ArrayList<>();
    f.gauges.values().stream().filter(g -> !g.points.isEmpty()).forEach(g -> out.add(g.snapshot()));
    f.infos.values().forEach(i -> out.add(i.build()));
    if (!f.summaries.isEmpty()) {
      SummarySnapshot.Builder latency =
          SummarySnapshot.builder()
              .name("linkwatch_allreduce_latency_seconds")
              .help(
                  "Allreduce time over the iterations of a run (slowest rank per iteration)."
                      + LAST_RUN)
              .unit(Unit.SECONDS);
      f.summaries.forEach(latency::dataPoint);
      out.add(latency.build());
    }
    out.add(runsCounter());
    out.add(
        InfoSnapshot.builder()
            .name("linkwatch_build")
            .help("Version of the agent and the device backend it talks to.")
            .dataPoint(
                InfoDataPointSnapshot.builder()
                    .labels(Labels.of("backend", backend, "version", version))
                    .build())
            .build());
    return new MetricSnapshots(out);
  }

  private static void addMeasurement(Families f, Measurement m) {
    if (m instanceof P2pBandwidth p) {
      f.result(
              "linkwatch_p2p_bandwidth_bytes_per_second",
              "Median copy bandwidth from device src to device dst.",
              null)
          .add(
              p.bytesPerSecond(),
              "src",
              String.valueOf(p.src()),
              "dst",
              String.valueOf(p.dst()),
              "link",
              p.link(),
              "size_bytes",
              String.valueOf(p.sizeBytes()));
    } else if (m instanceof AllreduceLatency a) {
      f.summaries.add(
          SummarySnapshot.SummaryDataPointSnapshot.builder()
              .labels(
                  Labels.of("devices", a.devices(), "size_bytes", String.valueOf(a.sizeBytes())))
              .quantiles(
                  Quantiles.of(
                      new Quantile(0.5, a.p50Seconds()), new Quantile(0.99, a.p99Seconds())))
              .count(a.iterations())
              .sum(a.sumSeconds())
              .build());
    } else if (m instanceof AllreduceBusBandwidth b) {
      f.result(
              "linkwatch_allreduce_bus_bandwidth_bytes_per_second",
              "Allreduce bus bandwidth, algbw*2(n-1)/n as nccl-tests define it.",
              null)
          .add(
              b.busBytesPerSecond(),
              "devices",
              b.devices(),
              "size_bytes",
              String.valueOf(b.sizeBytes()));
    } else if (m instanceof HostTransferBandwidth h) {
      f.result(
              "linkwatch_host_transfer_bandwidth_bytes_per_second",
              "Median host-device copy bandwidth; mem_node is where the buffer's pages really were.",
              null)
          .add(
              h.bytesPerSecond(),
              "device",
              String.valueOf(h.device()),
              "direction",
              h.direction(),
              "memory",
              h.memory(),
              "cpu_node",
              String.valueOf(h.cpuNode()),
              "mem_node",
              h.memNode(),
              "size_bytes",
              String.valueOf(h.sizeBytes()));
    } else if (m instanceof HostBufferPages p) {
      f.result(
              "linkwatch_host_buffer_pages_ratio",
              "Share of the host buffer's pages found on mem_node.",
              null)
          .add(
              p.ratio(),
              "device",
              String.valueOf(p.device()),
              "memory",
              p.memory(),
              "cpu_node",
              String.valueOf(p.cpuNode()),
              "mem_node",
              String.valueOf(p.memNode()));
    } else if (m instanceof DeviceMemoryBandwidth d) {
      f.result(
              "linkwatch_device_memory_bandwidth_bytes_per_second",
              "Device-local copy bandwidth, bytes copied per second.",
              null)
          .add(
              d.bytesPerSecond(),
              "device",
              String.valueOf(d.device()),
              "size_bytes",
              String.valueOf(d.sizeBytes()));
    } else if (m instanceof LinkInfo l) {
      f.info(
          "linkwatch_link",
          "Link type between two devices, from the topology.",
          "dst",
          String.valueOf(l.dst()),
          "link",
          l.link(),
          "src",
          String.valueOf(l.src()));
    } else if (m instanceof DeviceInfo d) {
      List<String> labels =
          new ArrayList<>(List.of("device", String.valueOf(d.device()), "name", d.name()));
      if (!d.numaNode().isEmpty()) {
        labels.addAll(List.of("numa_node", d.numaNode()));
      }
      if (!d.physicalId().isEmpty()) {
        labels.addAll(List.of("phy_id", d.physicalId()));
      }
      f.info(
          "linkwatch_device",
          "One series per device, with its inventory.",
          labels.toArray(String[]::new));
      f.result("linkwatch_device_memory_total_bytes", "Total device memory.", Unit.BYTES)
          .add(d.memoryTotalBytes(), "device", String.valueOf(d.device()));
    }
  }

  private void addHealth(Families f, List<TargetStatus> statuses) {
    Family success =
        f.gauge(
            "linkwatch_probe_success", "1 if the probe's last run for the target succeeded.", null);
    Family duration =
        f.gauge(
            "linkwatch_probe_duration_seconds",
            "Wall time of the probe's last run for the target.",
            Unit.SECONDS);
    Family lastSuccess =
        f.gauge(
            "linkwatch_probe_last_success_timestamp_seconds",
            "Unix time of the probe's last successful run for the target.",
            null);
    for (TargetStatus s : statuses) {
      success.add(s.succeeded() ? 1 : 0, "probe", s.probe(), "target", s.target());
      duration.add(s.durationSeconds(), "probe", s.probe(), "target", s.target());
      if (s.lastSuccessEpochSeconds() > 0) {
        lastSuccess.add(s.lastSuccessEpochSeconds(), "probe", s.probe(), "target", s.target());
      }
    }
    Family deferred =
        f.gauge(
            "linkwatch_probe_deferred",
            "1 while the target waits for an idle device: its last try was skipped or discarded"
                + " because a device it needs ran other work.",
            null);
    Family deferredSince =
        f.gauge(
            "linkwatch_probe_deferred_since_timestamp_seconds",
            "Unix time the target's current wait for an idle device began.",
            null);
    for (TargetStatus s : statuses) {
      deferred.add(s.deferred() ? 1 : 0, "probe", s.probe(), "target", s.target());
      if (s.deferred()) {
        deferredSince.add(s.deferredSinceEpochSeconds(), "probe", s.probe(), "target", s.target());
      }
    }
    f.gauge(
            "linkwatch_probe_deferred_alert_after_seconds",
            "How long a target may wait for an idle device before alerts say so (busy.alert_after).",
            Unit.SECONDS)
        .add(deferredAlertAfterSeconds);
    Family interval =
        f.gauge(
            "linkwatch_probe_interval_seconds",
            "The probe's configured schedule, so alerts need no hard-coded periods.",
            Unit.SECONDS);
    intervalSeconds.forEach((probe, seconds) -> interval.add(seconds, "probe", probe));
  }

  /** What the last activity check found on each device. */
  private static void addDeviceActivity(Families f, List<DeviceActivity> devices) {
    Family busy =
        f.gauge(
            "linkwatch_device_busy",
            "1 when the last activity check found the device running other work.",
            null);
    Family reason =
        f.gauge(
            "linkwatch_device_busy_reason",
            "1 for each kind of reading (process, utilization, memory, unknown) that made the"
                + " device busy at the last activity check.",
            null);
    Family processes =
        f.gauge(
            "linkwatch_device_processes",
            "Processes other than linkwatch's that held the device at the last activity check.",
            null);
    Family utilization =
        f.gauge(
            "linkwatch_device_utilization_ratio",
            "Device utilization by kind (aicore, hbm_bandwidth, npu) at the last activity check.",
            null);
    for (DeviceActivity a : devices) {
      String device = String.valueOf(a.device());
      busy.add(a.busy() ? 1 : 0, "device", device);
      a.reasons().stream()
          .map(r -> r.kind().label())
          .distinct()
          .forEach(kind -> reason.add(1, "device", device, "reason", kind));
      if (a.otherProcesses() != null) {
        processes.add(a.otherProcesses().size(), "device", device);
      }
      a.utilization()
          .forEach((kind, value) -> utilization.add(value, "device", device, "kind", kind));
    }
  }

  private CounterSnapshot runsCounter() {
    CounterSnapshot.Builder b =
        CounterSnapshot.builder()
            .name("linkwatch_probe_runs")
            .help(
                "Probe runs by target and result (success, error, timeout, skipped_busy,"
                    + " skipped_budget, skipped_device_busy, discarded_device_busy).");
    store
        .runCounts()
        .forEach(
            (key, count) ->
                b.dataPoint(
                    CounterDataPointSnapshot.builder()
                        .labels(
                            Labels.of(
                                "probe",
                                key.probe(),
                                "result",
                                key.result().label(),
                                "target",
                                key.target()))
                        .value(count)
                        .build()));
    return b.build();
  }
}
