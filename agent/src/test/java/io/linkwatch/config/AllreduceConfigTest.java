package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.probe.collective.AllreduceSettings;
import io.linkwatch.registry.ProbeKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AllreduceConfigTest {
  private static ProbeConfig allreduce(String yaml) {
    return ConfigLoader.parse("t.yaml", yaml).probes().get(ProbeKind.ALLREDUCE);
  }

  @Test
  void defaultsFollowTheFieldNotes() {
    ProbeConfig c = allreduce("");

    assertThat(c.enabled()).isTrue();
    assertThat(c.schedule().every()).contains(Duration.ofMinutes(5));
    assertThat(c.settings())
        .isEqualTo(new AllreduceSettings(List.of(1024L, 256L << 20), 10, 50, List.of()));
    assertThat(ProbeKind.byId("allreduce")).contains(ProbeKind.ALLREDUCE);
  }

  @Test
  void readsEveryKey() {
    ProbeConfig c =
        allreduce(
            """
            probes:
              allreduce:
                every: 10m
                sizes: [1KiB, 64MiB, 1GiB]
                warmup: 3
                iterations: 20
                devices: [1, 0]
            """);

    assertThat(c.schedule().every()).contains(Duration.ofMinutes(10));
    assertThat(c.settings())
        .isEqualTo(
            new AllreduceSettings(List.of(1024L, 64L << 20, 1L << 30), 3, 20, List.of(1, 0)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "sizes: [1KiB, 1001]  | probes.allreduce.sizes[1]: '1001' is not a multiple of 2 bytes"
            + " (the collectives send fp16 elements)",
        "sizes: []            | probes.allreduce.sizes: must not be empty",
        "sizes: 0             | probes.allreduce.sizes: '0' is not a size: it must be above 0",
        "devices: [0]         | probes.allreduce.devices: list at least two devices, or none for"
            + " all devices",
        "devices: [0, 1, 0]   | probes.allreduce.devices[2]: device 0 is listed twice",
        "devices: [0, -1]     | probes.allreduce.devices[1]: '-1' is not a device id: it must not be negative",
        "devices: [0, x]      | probes.allreduce.devices[1]: 'x' is not a device id (use e.g. 0)",
        "iterations: 0        | probes.allreduce.iterations: must be between 1 and 100000, not 0",
        "warmup: -1           | probes.allreduce.warmup: must be between 0 and 10000, not -1",
        "size: 1KiB           | probes.allreduce.size: unknown key, did you mean 'sizes'? (valid here: cron, deadline, devices, enabled, every, iterations, sizes, warmup)",
      })
  void rejectsInvalidValuesWithTheirPath(String entry, String message) {
    String yaml = "probes:\n  allreduce:\n    " + entry + "\n";

    assertThatThrownBy(() -> ConfigLoader.parse("t.yaml", yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage("t.yaml: " + message);
  }
}
