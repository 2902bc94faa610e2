package io.linkwatch.metrics;

import io.linkwatch.config.SeriesSettings.ProbeHealth;
import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.metrics.families.MetricWriter;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.TargetStatus;
import io.linkwatch.verdict.Subsystem;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.Map;

/**
 * Builds the exposition from the {@link ResultStore} at scrape time. Each measurement goes to the
 * writer its probe's descriptor registered for its type (given as {@code measurements}: {@code
 * ProbeKind::write}); probe health, device activity and the build come from their own classes here.
 * Nothing is cached between scrapes, so a failed run's series are simply gone at the next scrape.
 *
 * <p>Produces, for example:
 *
 * <pre>
 * linkwatch_p2p_bandwidth_bytes_per_second{dst="1",link_type="SIO",size_bytes="268435456",src="0"} 1.55E11
 * linkwatch_probe_success{probe="p2p",target="0->1"} 1.0
 * </pre>
 */
public final class LinkwatchCollector implements MultiCollector {
  static final String BUILD = "linkwatch_build";

  private final ResultStore store;
  private final MetricWriter<Measurement> measurements;
  private final Map<String, Double> intervalSeconds;
  private final String version;
  private final String backend;
  private final double deferredAlertAfterSeconds;
  private final PassiveExposition passive;
  private final ProbeHealth probeHealth;

  /**
   * @param deferredAlertAfterSeconds how long a target may wait for an idle device before the alert
   *     rules say so ({@code busy.alert_after})
   */
  public LinkwatchCollector(
      ResultStore store,
      MetricWriter<Measurement> measurements,
      Map<String, Double> intervalSeconds,
      String version,
      String backend,
      double deferredAlertAfterSeconds) {
    this(
        store,
        measurements,
        intervalSeconds,
        version,
        backend,
        deferredAlertAfterSeconds,
        null,
        ProbeHealth.PER_TARGET);
  }

  /**
   * @param passive the passive readings and how to show them, or null when watching is off
   * @param probeHealth the probes' health series per target or per probe ({@code
   *     series.probe_health})
   */
  public LinkwatchCollector(
      ResultStore store,
      MetricWriter<Measurement> measurements,
      Map<String, Double> intervalSeconds,
      String version,
      String backend,
      double deferredAlertAfterSeconds,
      PassiveExposition passive,
      ProbeHealth probeHealth) {
    this.passive = passive;
    this.probeHealth = probeHealth;
    this.store = store;
    this.measurements = measurements;
    this.intervalSeconds = Map.copyOf(intervalSeconds);
    this.version = version;
    this.backend = backend;
    this.deferredAlertAfterSeconds = deferredAlertAfterSeconds;
  }

  @Override
  public MetricSnapshots collect() {
    MetricFamilies f = new MetricFamilies();
    List<TargetStatus> statuses = store.statuses();
    for (TargetStatus s : statuses) {
      for (Measurement m : s.measurements()) {
        measurements.write(m, f);
      }
    }
    HealthMetrics.write(statuses, probeHealth, f);
    HealthMetrics.writeSettings(intervalSeconds, deferredAlertAfterSeconds, f);
    HealthMetrics.writeRuns(store.runCounts(), probeHealth, f);
    HealthMetrics.writeDeviceSeconds(store.probeDeviceSeconds(), f);
    HealthMetrics.writeTolerated(store.toleratedCounts(), f);
    DeviceActivityMetrics.write(store.deviceActivity(), store::holders, f);
    DeviceActivityMetrics.writeLookups(store.podLookupCounts(), f);
    CheckMetrics.write(store.checks(), f);
    FindingMetrics.write(store.findings(), f);
    DeviceHealthMetrics.write(store.findings(), devices(), watched(statuses), f);
    if (passive != null) {
      PassiveMetrics.write(
          passive.store(),
          passive.intervalSeconds(),
          new PassiveMetrics.InactiveByDesign(passive.inactiveLinks(), store.deviceNames()),
          passive.linkCounters(),
          f);
      NicMetrics.write(passive.store().nicPorts(), f);
      NicMetrics.writeCounts(passive.store().portCounts(), f);
    }
    f.add(
        InfoSnapshot.builder()
            .name(BUILD)
            .help("Version of the agent and the device backend it talks to.")
            .dataPoint(
                InfoDataPointSnapshot.builder()
                    .labels(Labels.of("backend", backend, "version", version))
                    .build())
            .build());
    return new MetricSnapshots(f.snapshots());
  }

  /** The devices the inventory names and those the watcher reads. */
  private java.util.Set<Integer> devices() {
    java.util.Set<Integer> out = new java.util.TreeSet<>(store.deviceNames().keySet());
    if (passive != null) {
      passive.store().states().forEach(d -> out.add(d.device()));
    }
    return out;
  }

  /**
   * The subsystems this host measures or reads: the device links always; host transfers when that
   * probe has run; PCIe paths and the devices' own network ports when the watcher reads them.
   */
  private java.util.Set<Subsystem> watched(List<TargetStatus> statuses) {
    java.util.Set<Subsystem> out = java.util.EnumSet.of(Subsystem.LINKS);
    if (statuses.stream().anyMatch(s -> s.probe().equals(ProbeKind.HOST_TRANSFER.id()))) {
      out.add(Subsystem.HOST_TRANSFER);
    }
    if (passive != null) {
      if (passive.store().states().stream().anyMatch(d -> !d.pcie().isEmpty())) {
        out.add(Subsystem.PCIE);
      }
      if (passive.store().nicPorts().stream().anyMatch(n -> n.port().device() != null)) {
        out.add(Subsystem.NIC);
      }
    }
    return out;
  }
}
