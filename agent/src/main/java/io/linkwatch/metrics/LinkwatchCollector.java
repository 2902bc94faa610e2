package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.metrics.families.MetricWriter;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.TargetStatus;
import io.linkwatch.verdict.InactiveLink;
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
  private final PassiveStore passive;
  private final double passiveIntervalSeconds;
  private final List<InactiveLink> inactiveLinks;

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
        0,
        List.of());
  }

  /**
   * @param passive the passive readings, or null when passive watching is off
   * @param passiveIntervalSeconds {@code passive.interval}
   * @param inactiveLinks the links products leave inactive by design ({@code inactive_links} and
   *     the shipped rows), marked on their link series
   */
  public LinkwatchCollector(
      ResultStore store,
      MetricWriter<Measurement> measurements,
      Map<String, Double> intervalSeconds,
      String version,
      String backend,
      double deferredAlertAfterSeconds,
      PassiveStore passive,
      double passiveIntervalSeconds,
      List<InactiveLink> inactiveLinks) {
    this.inactiveLinks = List.copyOf(inactiveLinks);
    this.passive = passive;
    this.passiveIntervalSeconds = passiveIntervalSeconds;
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
    HealthMetrics.write(statuses, f);
    HealthMetrics.writeSettings(intervalSeconds, deferredAlertAfterSeconds, f);
    HealthMetrics.writeRuns(store.runCounts(), f);
    HealthMetrics.writeDeviceSeconds(store.probeDeviceSeconds(), f);
    HealthMetrics.writeTolerated(store.toleratedCounts(), f);
    DeviceActivityMetrics.write(store.deviceActivity(), store::holders, f);
    DeviceActivityMetrics.writeLookups(store.podLookupCounts(), f);
    CheckMetrics.write(store.checks(), f);
    FindingMetrics.write(store.findings(), f);
    if (passive != null) {
      PassiveMetrics.write(
          passive,
          passiveIntervalSeconds,
          new PassiveMetrics.InactiveByDesign(inactiveLinks, store.deviceNames()),
          f);
      NicMetrics.write(passive.nicPorts(), f);
      NicMetrics.writeCounts(passive.portCounts(), f);
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
}
