package io.linkwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.SeriesSettings;
import io.linkwatch.passive.ExpectedPorts;
import io.linkwatch.passive.PassiveSource;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.PortExpectations;
import io.linkwatch.passive.WatcherProcess;
import io.linkwatch.passive.nic.NicPort;
import io.linkwatch.passive.nic.Optics;
import io.linkwatch.passive.pcie.AerSeverity;
import io.linkwatch.passive.pcie.PcieHop;
import io.linkwatch.passive.pcie.PcieRole;
import io.linkwatch.probe.collective.AllgatherBusBandwidth;
import io.linkwatch.probe.collective.AllgatherLatency;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.probe.devicememory.DeviceMemoryBandwidth;
import io.linkwatch.probe.hosttransfer.HostBufferPages;
import io.linkwatch.probe.hosttransfer.HostTransferBandwidth;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.p2p.P2pBidirectionalBandwidth;
import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.ToleratedFailure;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.Promtool;
import io.linkwatch.util.Durations;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Scrapes a fixed set of results and compares the whole exposition with the golden file, which also
 * passes {@code promtool check metrics}. Set {@code -Dlinkwatch.golden.update=true} to rewrite the
 * file after an intended change, and review the diff.
 */
public class GoldenExpositionTest {
  static final Path GOLDEN = Path.of("src/test/resources/golden/linkwatch.prom");

  /** Device 0's HCCS link 1 is inactive by design, so the file shows the series that says so. */
  static final java.util.List<io.linkwatch.verdict.InactiveLink> INACTIVE_BY_DESIGN =
      java.util.List.of(
          new io.linkwatch.verdict.InactiveLink(
              "Ascend910_93", "HCCS", java.util.List.of(1), "golden fixture"));

  static String scrape(ResultStore store) throws Exception {
    return scrape(store, fixedPassive());
  }

  static String scrape(ResultStore store, PassiveStore passive) throws Exception {
    return scrape(store, passive, SeriesSettings.DEFAULTS);
  }

  static String scrape(ResultStore store, PassiveStore passive, SeriesSettings series)
      throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(
        new LinkwatchCollector(
            store,
            ProbeKind::write,
            defaultIntervals(),
            "1.2.3",
            "sim",
            86400,
            new PassiveExposition(passive, 15, INACTIVE_BY_DESIGN, series.linkCounters()),
            series.probeHealth()));
    registry.register(new PeerCollector(() -> store.peers().orElse(null)));
    registry.register(new PeerRunsCollector(io.linkwatch.testing.PairRunsFixture.results()));
    // A host in shadow mode whose health check would have drained it twice.
    registry.register(new ShadowCollector(false, store::shadow));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Every probe's default interval, so every probe has its interval series. */
  static Map<String, Double> defaultIntervals() {
    Map<String, Double> intervals = new TreeMap<>();
    for (ProbeKind kind : ProbeKind.values()) {
      intervals.put(kind.id(), (double) Durations.parse(kind.defaultInterval()).toSeconds());
    }
    return intervals;
  }

  /**
   * Passive readings of every kind: an HCCS port at 2 of 4 lanes with 32-bit counters, an SIO
   * link's 16-bit CRC counts, an NVLink into an NVSwitch with the PCIe replay counter, a device
   * whose read failed in a named call, PCIe hops from sysfs up to the root port, and ports to other
   * servers: an adapter's and an NPU's own, held to an operator's expected-ports row.
   */
  public static PassiveStore fixedPassive() {
    PassiveStore p =
        new PassiveStore(Clock.fixed(Instant.ofEpochSecond(1_790_000_000), ZoneOffset.UTC));
    p.recordLinks(
        new DeviceLinks(
            0,
            "dcmi",
            "0000:c1:00.0",
            List.of(
                new LinkReading(
                    "1",
                    "HCCS",
                    "1",
                    true,
                    2,
                    4,
                    32,
                    20,
                    1000L,
                    900L,
                    Map.of("crc", 3L, "retry", 1L)),
                new LinkReading(
                    "0",
                    "SIO",
                    "1",
                    null,
                    null,
                    null,
                    16,
                    1,
                    null,
                    null,
                    Map.of("crc_tx", 0L, "crc_rx", 2L))),
            null,
            List.of(),
            null,
            null));
    p.recordLinks(
        new DeviceLinks(
            1,
            "dcmi",
            "0000:c2:00.0",
            List.of(),
            null,
            List.of(),
            "dcmi_get_device_info returned -8005: internal error (HCCS lanes, main 16 sub 1)",
            "dcmi_get_device_info"));
    p.recordLinks(
        new DeviceLinks(
            2,
            "nvml",
            "0000:18:00.0",
            List.of(
                new LinkReading(
                    "0",
                    "NVLINK",
                    "nvswitch",
                    true,
                    null,
                    null,
                    64,
                    1024,
                    5L,
                    6L,
                    Map.of("retry", 0L, "recovery", 0L, "crc_flit", 1L, "crc_data", 0L))),
            7L,
            List.of(),
            null,
            null));
    p.recordPcie(
        0,
        "0000:c1:00.0",
        List.of(
            new PcieHop(
                "0000:c1:00.0",
                PcieRole.DEVICE,
                OptionalDouble.of(16e9),
                OptionalDouble.of(32e9),
                OptionalInt.of(16),
                OptionalInt.of(16),
                Map.of(
                    AerSeverity.CORRECTABLE, 2L, AerSeverity.NONFATAL, 0L, AerSeverity.FATAL, 0L)),
            new PcieHop(
                "0000:c0:01.0",
                PcieRole.ROOT_PORT,
                OptionalDouble.of(32e9),
                OptionalDouble.of(32e9),
                OptionalInt.of(16),
                OptionalInt.of(16),
                Map.of())));
    // Ports to other servers: an adapter's from sysfs, and NPU 3's own RoCE port (hccn_tool)
    // trained at 200 Gb/s where the operator's row says 8 ports at 400 Gb/s.
    p.recordNicPorts(
        PassiveSource.INFINIBAND,
        List.of(
            new NicPort(
                "mlx5_0",
                1,
                "InfiniBand",
                NicPort.ACTIVE,
                "LinkUp",
                4e11,
                1_000_000L,
                2_000_000L,
                1L,
                Map.of("symbol_error", 0L, "local_ack_timeout_err", 3L),
                "ib0")));
    p.recordDevicePort(
        PassiveSource.HCCN_TOOL,
        3,
        new NicPort(
            "npu3",
            0,
            "Ethernet",
            NicPort.ACTIVE,
            null,
            2e11,
            5_000_000L,
            6_000_000L,
            null,
            Map.of("roce_new_pkt_rty", 7L, "mac_rx_fcs_err_pkt", 0L),
            null,
            3,
            2L,
            new Optics(
                "present",
                47.0,
                3.2629,
                new TreeMap<>(Map.of(0, 0.0011)),
                new TreeMap<>(Map.of(0, 0.00102)),
                new TreeMap<>(Map.of(0, 0.0079)),
                new TreeMap<>(),
                new TreeMap<>(Map.of(0, 23.1)),
                List.of("host_snr")),
            "Socket fail",
            new NicPort.Neighbour("leaf-01", "400GE1/0/4"),
            "192.168.100.13",
            List.of()));
    p.expectPorts(
        new PortExpectations(
            List.of(
                new ExpectedPorts(
                    "Ascend910B", PassiveSource.HCCN_TOOL, 4e11, 8, "operator: linkwatch.yaml")),
            () -> Map.of(3, "Ascend910B3")));
    p.recordRound(PassiveSource.DCMI, 0.012);
    p.recordRound(PassiveSource.SYSFS, 0.001);
    p.recordRound(PassiveSource.INFINIBAND, 0.002);
    p.recordRound(PassiveSource.HCCN_TOOL, 1.2);
    // the watcher's cost as a running one reports it
    p.watcherFootprint(() -> new WatcherProcess.Footprint(52L << 20, 12.5, 1));
    return p;
  }

  public static ResultStore fixedStore() {
    ResultStore store =
        new ResultStore(Clock.fixed(Instant.ofEpochSecond(1_790_000_000), ZoneOffset.UTC));
    store.record(
        ProbeRun.of(
                "p2p",
                List.of(
                    TargetResult.success(
                        "0->1",
                        2.5,
                        List.of(new P2pBandwidth(0, 1, "SIO", 268435456, 1.551e11, 0.001731))),
                    TargetResult.failure(
                        "1->0",
                        Outcome.ERROR,
                        "aclrtMemcpyAsync returned 507011: injected fault",
                        0.4,
                        "aclrtMemcpyAsync")))
            .withTolerated(
                List.of(
                    new ToleratedFailure(
                        "aclrtResetDevice",
                        "aclrtResetDevice(1) returned 507899: injected fault"))));
    store.record(
        ProbeRun.of(
            "p2p_bidirectional",
            List.of(
                TargetResult.success(
                    "0<->1",
                    3.1,
                    List.of(
                        new P2pBidirectionalBandwidth(
                            0, 1, "SIO", 268435456, 2.542e11, 0.002112))))));
    store.record(
        ProbeRun.of(
            "allreduce",
            List.of(
                TargetResult.success(
                    "0,1",
                    3.0,
                    List.of(
                        new AllreduceLatency("0,1", 1024, 2.727e-4, 2.9e-4, 50, 0.01375),
                        new AllreduceBusBandwidth("0,1", 1073741824, 1.051e11, 1.051e11))))));
    store.record(
        ProbeRun.of(
            "allgather",
            List.of(
                TargetResult.success(
                    "0,1",
                    2.0,
                    List.of(
                        new AllgatherLatency("0,1", 1024, 2.705e-4, 2.81e-4, 50, 0.01353),
                        new AllgatherBusBandwidth("0,1", 268435456, 2.304e11, 1.152e11))))));
    store.record(
        ProbeRun.of(
            "host_transfer",
            List.of(
                TargetResult.success(
                    "dev0/node4",
                    1.5,
                    List.of(
                        new HostTransferBandwidth(
                            0, "h2d", "pageable", 4, "5", 67108864, 1.86e10, "numa_maps"),
                        new HostTransferBandwidth(
                            0, "d2h", "pinned", 4, "unknown", 67108864, 4.1e10, "unknown"),
                        new HostBufferPages(0, "pageable", 4, 5, 1.0))))));
    // Device 1 runs a job: its target waits, device 0 is measured.
    store.record(
        new ProbeRun(
            "device_memory",
            List.of(
                TargetResult.success(
                    "dev0", 0.8, List.of(new DeviceMemoryBandwidth(0, 1073741824, 6.21e11))),
                TargetResult.failure(
                    "dev1",
                    Outcome.SKIPPED_DEVICE_BUSY,
                    "device 1 is busy: pid 4242 holds 2GiB, aicore 80%",
                    0)),
            "",
            List.of(
                new DeviceActivity(
                    0,
                    false,
                    "dcmi",
                    List.of(),
                    List.of(),
                    Map.of("aicore", 0.0, "hbm_bandwidth", 0.02, "npu", 0.01),
                    null,
                    1_790_000_000_000L),
                new DeviceActivity(
                    1,
                    true,
                    "dcmi",
                    List.of(
                        new BusyReason(BusyReason.Kind.PROCESS, "pid 4242 holds 2GiB"),
                        new BusyReason(BusyReason.Kind.UTILIZATION, "aicore 80%")),
                    List.of(new DeviceProcess(4242, 2L << 30)),
                    Map.of("aicore", 0.8, "hbm_bandwidth", 0.5, "npu", 0.8),
                    null,
                    1_790_000_000_000L)),
            List.of()));
    store.record(
        ProbeRun.of(
            "topology",
            List.of(
                TargetResult.success(
                    "dev0",
                    0.1,
                    List.of(
                        new LinkInfo(0, 1, "SIO"),
                        new DeviceInfo(0, "Ascend910_9382", 2, null, "", 68719476736L))))));
    // On Kubernetes: one lookup timed out, the next named the pod holding busy device 1.
    store.recordPodLookup(
        io.linkwatch.kubelet.PodLookup.failed(
            io.linkwatch.kubelet.PodLookup.Result.TIMEOUT, "no answer", 1_790_000_000_000L));
    store.recordPodLookup(
        new io.linkwatch.kubelet.PodLookup(
            io.linkwatch.kubelet.PodLookup.Result.SUCCESS,
            Map.of(
                1,
                List.of(
                    new io.linkwatch.kubelet.DeviceHolder(
                        "ml", "train-0", "trainer", "huawei.com/Ascend910", "Ascend910-1"))),
            "",
            1_790_000_000_000L));
    // A second p2p run: 0->1 times out, so its bandwidth series must be gone.
    // A prolog's quick check failed on the SIO link; the epilog's medium check was OK.
    store.recordChecks(
        List.of(
            new io.linkwatch.state.CheckRecord(
                "quick",
                "FAIL",
                "LW-BELOW-FLOOR",
                "p2p 0->1 SIO 256MiB",
                "p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s",
                1_790_000_000.0,
                4.2),
            new io.linkwatch.state.CheckRecord(
                "medium",
                "OK",
                "",
                "",
                "2 devices, 5 p2p figures, 2 links: as expected",
                1_789_990_000.0,
                22.5)));
    store.recordShadow(
        List.of(
            new io.linkwatch.state.ShadowRecord(
                io.linkwatch.state.KitHook.HEALTHCHECK,
                2,
                "SHADOW FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s",
                1_790_000_000.0)));
    // The agent's verdict stands on a PCIe switch port above device 0 running narrow.
    store.recordFindings(
        List.of(
            new io.linkwatch.status.FindingEntry(
                "LW-PCIE-WIDTH",
                "WARN",
                "pcie 0000:3a:00.0",
                "bridge above device 0 runs at x8, the narrowest maximum on the path x16",
                "bridge above device 0 runs at x8, the narrowest maximum on the path x16",
                "reseat the device, riser or switch board under the hop",
                Instant.ofEpochSecond(1_789_999_000),
                12,
                1,
                false,
                "pcie",
                List.of(0),
                List.of("4711"))));
    return store;
  }

  @Test
  void exposesTheGoldenText() throws Exception {
    ResultStore store = fixedStore();
    // The probes between servers too: every family on /metrics is in the golden file.
    store.peers(io.linkwatch.testing.PeerFixture::snapshot);
    String text = scrape(store);
    if (Boolean.getBoolean("linkwatch.golden.update")) {
      Files.writeString(GOLDEN, text);
    }
    assertThat(text).isEqualTo(Files.readString(GOLDEN));
  }

  @Test
  void goldenFilePassesPromtool() throws Exception {
    Promtool.assertCleanMetrics(Files.readString(GOLDEN));
  }

  @Test
  void aFailedRunRemovesItsSeriesAndKeepsItsLastSuccessTime() throws Exception {
    ResultStore store = fixedStore();
    store.record(
        ProbeRun.of(
            "p2p", List.of(TargetResult.failure("0->1", Outcome.TIMEOUT, "deadline", 120))));
    String text = scrape(store);
    assertThat(text).doesNotContain("linkwatch_p2p_bandwidth_bytes_per_second{");
    assertThat(text).contains("linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 0.0");
    assertThat(text)
        .contains(
            "linkwatch_probe_last_success_timestamp_seconds{probe=\"p2p\",target=\"0->1\"} 1.79E9");
    assertThat(text)
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"timeout\",target=\"0->1\"} 1.0");
    assertThat(text)
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"success\",target=\"0->1\"} 1.0");
  }

  @Test
  void skippedRunsCountAgainstKnownTargetsAndKeepResults() throws Exception {
    ResultStore store = fixedStore();
    store.recordSkip("p2p", Outcome.SKIPPED_BUSY);
    store.recordSkip("never_ran", Outcome.SKIPPED_BUDGET);
    String text = scrape(store);
    assertThat(text)
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"skipped_busy\",target=\"0->1\"} 1.0");
    assertThat(text)
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"skipped_busy\",target=\"1->0\"} 1.0");
    assertThat(text)
        .contains(
            "linkwatch_probe_runs_total{probe=\"never_ran\",result=\"skipped_budget\",target=\"never_ran\"} 1.0");
    assertThat(text).contains("linkwatch_p2p_bandwidth_bytes_per_second{dst=\"1\"");
  }

  @Test
  void aTargetWaitingForAnIdleDeviceKeepsItsLastFiguresAndSaysSince() throws Exception {
    ResultStore store = fixedStore();
    // p2p 0->1 succeeded at 1.79e9; now device 1 is busy: skipped, then a retry discards.
    store.record(
        ProbeRun.of(
            "p2p",
            List.of(
                TargetResult.failure(
                    "0->1", Outcome.SKIPPED_DEVICE_BUSY, "device 1 is busy: pid 4242", 0),
                TargetResult.failure("1->0", Outcome.SKIPPED_DEVICE_BUSY, "device 1 is busy", 0))));
    store.record(
        ProbeRun.of(
            "p2p",
            List.of(
                TargetResult.failure(
                    "0->1",
                    Outcome.DISCARDED_DEVICE_BUSY,
                    "device 1 became busy during the run: pid 4243",
                    3))),
        true);
    String text = scrape(store);
    assertThat(text)
        .contains(
            "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"1\",link_type=\"SIO\",size_bytes=\"268435456\",src=\"0\"} 1.551E11")
        .contains("linkwatch_probe_success{probe=\"p2p\",target=\"0->1\"} 1.0")
        .contains("linkwatch_probe_deferred{probe=\"p2p\",target=\"0->1\"} 1.0")
        .contains("linkwatch_probe_deferred{probe=\"p2p\",target=\"1->0\"} 1.0")
        .contains(
            "linkwatch_probe_deferred_since_timestamp_seconds{probe=\"p2p\",target=\"0->1\"} 1.79E9")
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"skipped_device_busy\",target=\"0->1\"} 1.0")
        .contains(
            "linkwatch_probe_runs_total{probe=\"p2p\",result=\"discarded_device_busy\",target=\"0->1\"} 1.0");
    assertThat(store.deferredTargets("p2p")).containsExactly("0->1", "1->0");

    // A retry that measures 0->1 ends its wait and leaves 1->0 waiting.
    store.record(
        ProbeRun.of(
            "p2p",
            List.of(
                TargetResult.success(
                    "0->1",
                    2.5,
                    List.of(new P2pBandwidth(0, 1, "SIO", 268435456, 1.6e11, 0.0017))))),
        true);
    text = scrape(store);
    assertThat(text)
        .contains("linkwatch_probe_deferred{probe=\"p2p\",target=\"0->1\"} 0.0")
        .contains("linkwatch_probe_deferred{probe=\"p2p\",target=\"1->0\"} 1.0")
        .doesNotContain(
            "linkwatch_probe_deferred_since_timestamp_seconds{probe=\"p2p\",target=\"0->1\"}");
    assertThat(store.deferredTargets("p2p")).containsExactly("1->0");
  }

  /**
   * The golden file is the metric contract the dashboard checker reads: it must show every type.
   */
  @Test
  void theFixtureHasEveryRegisteredKindOfMeasurement() {
    Set<Class<?>> inFixture =
        fixedStore().statuses().stream()
            .flatMap(t -> t.measurements().stream())
            .map(Object::getClass)
            .collect(Collectors.toSet());
    for (ProbeKind kind : ProbeKind.values()) {
      assertThat(inFixture)
          .as(kind + "'s measurement types in the golden fixture")
          .containsAll(kind.descriptor().measurementTypes());
    }
  }
}
