package io.linkwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.SeriesSettings;
import io.linkwatch.config.SeriesSettings.LinkCounters;
import io.linkwatch.config.SeriesSettings.ProbeHealth;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The {@code series:} knobs. {@code link_counters: per_device}: each device's traffic and error
 * counters summed over its links of one type, one series where there were one per link; link state
 * stays per link. {@code probe_health: per_probe}: each probe's targets folded into their worst,
 * one set of health series per probe; the failed call stays per target.
 */
class SeriesKnobsTest {
  /** Device 0: two HCCS links and one SIO link, each with traffic and errors. */
  private static PassiveStore store() {
    PassiveStore p =
        new PassiveStore(Clock.fixed(Instant.ofEpochSecond(1_790_000_000), ZoneOffset.UTC));
    p.recordLinks(
        new DeviceLinks(
            0,
            "dcmi",
            "0000:c1:00.0",
            List.of(
                hccs("1", "1", 1000L, 900L, 3L),
                hccs("2", "2", 500L, 400L, 4L),
                new LinkReading(
                    "0", "SIO", "1", null, null, null, 16, 1, 70L, 60L, Map.of("crc_rx", 2L))),
            null,
            List.of(),
            null,
            null));
    return p;
  }

  private static LinkReading hccs(String link, String peer, long tx, long rx, long crc) {
    return new LinkReading(link, "HCCS", peer, true, 4, 4, 32, 20, tx, rx, Map.of("crc", crc));
  }

  /** Sample lines of {@code family} (name and labels) with their values. */
  private static Map<String, Double> samples(String exposition, String family) {
    Map<String, Double> out = new TreeMap<>();
    for (String line : exposition.split("\n")) {
      if (line.startsWith(family + "{")) {
        int space = line.lastIndexOf(' ');
        out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
      }
    }
    return out;
  }

  @Test
  void perDeviceSumsEachTypesLinksAndKeepsTheirStatePerLink() throws Exception {
    String perLink =
        GoldenExpositionTest.scrape(
            GoldenExpositionTest.fixedStore(),
            store(),
            new SeriesSettings(LinkCounters.PER_LINK, ProbeHealth.PER_TARGET));
    String perDevice =
        GoldenExpositionTest.scrape(
            GoldenExpositionTest.fixedStore(),
            store(),
            new SeriesSettings(LinkCounters.PER_DEVICE, ProbeHealth.PER_TARGET));

    assertThat(samples(perLink, "linkwatch_link_transmit_bytes_total")).hasSize(3);
    assertThat(samples(perDevice, "linkwatch_link_transmit_bytes_total"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "linkwatch_link_transmit_bytes_total{device=\"0\",link_type=\"HCCS\"}",
                (1000.0 + 500.0) * 20,
                "linkwatch_link_transmit_bytes_total{device=\"0\",link_type=\"SIO\"}",
                70.0));
    assertThat(samples(perDevice, "linkwatch_link_receive_bytes_total"))
        .containsEntry(
            "linkwatch_link_receive_bytes_total{device=\"0\",link_type=\"HCCS\"}",
            (900.0 + 400.0) * 20);
    assertThat(samples(perDevice, "linkwatch_link_errors_total"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "linkwatch_link_errors_total{device=\"0\",kind=\"crc\",link_type=\"HCCS\"}",
                7.0,
                "linkwatch_link_errors_total{device=\"0\",kind=\"crc_rx\",link_type=\"SIO\"}",
                2.0));
    // State and lanes name the link that is down or downtrained: per link in both.
    assertThat(samples(perDevice, "linkwatch_link_up"))
        .isEqualTo(samples(perLink, "linkwatch_link_up"))
        .hasSize(2);
    assertThat(samples(perDevice, "linkwatch_link_lanes"))
        .isEqualTo(samples(perLink, "linkwatch_link_lanes"));
  }

  /** {@code family}'s samples per probe label value, from an exposition. */
  private static Map<String, List<Double>> byProbe(String exposition, String family) {
    Map<String, List<Double>> out = new TreeMap<>();
    samples(exposition, family)
        .forEach(
            (key, value) -> {
              java.util.regex.Matcher m =
                  java.util.regex.Pattern.compile("probe=\"([^\"]+)\"").matcher(key);
              assertThat(m.find()).as(key).isTrue();
              out.computeIfAbsent(m.group(1), p -> new java.util.ArrayList<>()).add(value);
            });
    return out;
  }

  @Test
  void perProbeFoldsEachProbesTargetsIntoTheirWorst() throws Exception {
    String perTarget =
        GoldenExpositionTest.scrape(
            GoldenExpositionTest.fixedStore(), store(), SeriesSettings.DEFAULTS);
    String perProbe =
        GoldenExpositionTest.scrape(
            GoldenExpositionTest.fixedStore(),
            store(),
            new SeriesSettings(LinkCounters.PER_LINK, ProbeHealth.PER_PROBE));

    Map<String, List<Double>> success = byProbe(perTarget, "linkwatch_probe_success");
    assertThat(success.values().stream().mapToInt(List::size).sum())
        .as("the fixture has probes with several targets")
        .isGreaterThan(success.size());
    assertThat(success.values()).as("and a failing target").anyMatch(v -> v.contains(0.0));
    for (String family :
        List.of(
            "linkwatch_probe_success",
            "linkwatch_probe_duration_seconds",
            "linkwatch_probe_deferred",
            "linkwatch_probe_runs_total")) {
      assertThat(samples(perProbe, family).keySet())
          .as(family + " per probe")
          .isNotEmpty()
          .noneMatch(k -> k.contains("target="));
    }
    Map<String, List<Double>> folded = byProbe(perProbe, "linkwatch_probe_success");
    assertThat(folded.keySet()).isEqualTo(success.keySet());
    success.forEach(
        (probe, values) ->
            assertThat(folded.get(probe))
                .as(probe + ": 1 only if every target's last run succeeded")
                .containsExactly(values.contains(0.0) ? 0.0 : 1.0));
    Map<String, List<Double>> durations = byProbe(perTarget, "linkwatch_probe_duration_seconds");
    byProbe(perProbe, "linkwatch_probe_duration_seconds")
        .forEach(
            (probe, v) ->
                assertThat(v).containsExactly(java.util.Collections.max(durations.get(probe))));
    // Runs summed over the targets, by result: the same total either way.
    assertThat(
            samples(perProbe, "linkwatch_probe_runs_total").values().stream()
                .mapToDouble(d -> d)
                .sum())
        .isEqualTo(
            samples(perTarget, "linkwatch_probe_runs_total").values().stream()
                .mapToDouble(d -> d)
                .sum())
        .isPositive();
    // The failed call names its target in both.
    assertThat(samples(perProbe, "linkwatch_probe_failed_call_info"))
        .isEqualTo(samples(perTarget, "linkwatch_probe_failed_call_info"))
        .isNotEmpty();
  }
}
