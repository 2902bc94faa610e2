package io.linkwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.status.FindingEntry;
import io.linkwatch.verdict.Subsystem;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeviceHealthMetricsTest {
  static final Instant T = Instant.parse("2026-12-07T01:00:00Z");

  static FindingEntry finding(
      String code, String state, boolean escalated, String subsystem, Integer... devices) {
    return new FindingEntry(
        code,
        state,
        code + " subject",
        "evidence",
        "evidence",
        "",
        T,
        1,
        1,
        escalated,
        subsystem,
        List.of(devices),
        List.of());
  }

  static List<String> series(List<FindingEntry> findings, Set<Subsystem> watched) throws Exception {
    MetricFamilies f = new MetricFamilies();
    DeviceHealthMetrics.write(findings, Set.of(0, 2, 3, 5), watched, f);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, new MetricSnapshots(f.snapshots()));
    return out.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("#")).toList();
  }

  @Test
  void eachDevicesSubsystemIsItsWorstFindingAndAHealthyOneReadsZero() throws Exception {
    List<String> lines =
        series(
            List.of(
                // A link both ways: both its devices.
                finding("LW-LINK-SLOW", "WARN", false, "links", 2, 5),
                // Device 5's links also fail outright: the worse counts.
                finding("LW-LINK-DOWN", "FAIL", false, "links", 5),
                // A switch above devices 2 and 3.
                finding("LW-PCIE-WIDTH", "WARN", false, "pcie", 2, 3),
                // Escalated: its state is already the escalated one.
                finding("LW-NIC-SLOW", "FAIL", true, "nic", 0),
                // About no device, and one that cannot judge: no health.
                finding("LW-HOST-WIDE", "FAIL", false, ""),
                finding("LW-TIMEOUT", "UNKNOWN", false, "links", 3)),
            EnumSet.allOf(Subsystem.class));
    assertThat(lines)
        .contains(
            "linkwatch_device_health{device=\"2\",subsystem=\"links\"} 1.0",
            "linkwatch_device_health{device=\"5\",subsystem=\"links\"} 2.0",
            "linkwatch_device_health{device=\"2\",subsystem=\"pcie\"} 1.0",
            "linkwatch_device_health{device=\"3\",subsystem=\"pcie\"} 1.0",
            "linkwatch_device_health{device=\"0\",subsystem=\"nic\"} 2.0",
            "linkwatch_device_health{device=\"3\",subsystem=\"links\"} 0.0",
            "linkwatch_device_health{device=\"0\",subsystem=\"links\"} 0.0",
            "linkwatch_device_health{device=\"5\",subsystem=\"host_transfer\"} 0.0")
        .hasSize(4 * 4);
  }

  @Test
  void onlyTheWatchedSubsystemsHaveSeries() throws Exception {
    List<String> lines =
        series(
            List.of(finding("LW-PCIE-WIDTH", "WARN", false, "pcie", 2)),
            EnumSet.of(Subsystem.LINKS));
    assertThat(lines).hasSize(4).allMatch(l -> l.contains("subsystem=\"links\"} 0.0"));
  }
}
