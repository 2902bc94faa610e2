package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.devicememory.DeviceMemorySettings;
import io.linkwatch.probe.topology.TopologySettings;
import io.linkwatch.registry.ProbeKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code device_memory} and {@code topology} entries of the config file. */
class ProbeSettingsConfigTest {
  private static ProbeConfig probe(String yaml, ProbeKind kind) {
    return ConfigLoader.parse("test.yaml", yaml).probes().get(kind);
  }

  @Test
  void defaults() {
    ProbeConfig memory = probe("", ProbeKind.DEVICE_MEMORY);
    assertThat(memory.settings()).isEqualTo(new DeviceMemorySettings(1L << 30, 5, 20, List.of()));
    assertThat(memory.schedule().nominalInterval()).isEqualTo(Duration.ofMinutes(10));
    ProbeConfig topology = probe("", ProbeKind.TOPOLOGY);
    assertThat(topology.settings()).isEqualTo(new TopologySettings());
    assertThat(topology.schedule().nominalInterval()).isEqualTo(Duration.ofHours(1));
    assertThat(ProbeKind.DEVICE_MEMORY.id()).isEqualTo("device_memory");
    assertThat(ProbeKind.DEVICE_MEMORY.cliName()).isEqualTo("device-memory");
    assertThat(ProbeKind.TOPOLOGY.id()).isEqualTo("topology");
  }

  @Test
  void validValues() {
    ProbeConfig memory =
        probe(
            """
            probes:
              device_memory:
                every: 30m
                size: 256MiB
                warmup: 0
                iterations: 7
                devices: [3, 1]
              topology:
                every: 6h
                enabled: false
            topology:
              command: [/opt/bin/npu-smi, info, -t, topo]
            """,
            ProbeKind.DEVICE_MEMORY);
    assertThat(memory.settings())
        .isEqualTo(new DeviceMemorySettings(256L << 20, 0, 7, List.of(3, 1)));
    assertThat(memory.schedule().nominalInterval()).isEqualTo(Duration.ofMinutes(30));
    AgentConfig all =
        ConfigLoader.parse(
            "test.yaml",
            """
            probes:
              topology:
                every: 6h
                enabled: false
            topology:
              command: [/opt/bin/npu-smi, info, -t, topo]
            """);
    assertThat(all.probes().get(ProbeKind.TOPOLOGY).enabled()).isFalse();
    assertThat(all.topologyCommand()).containsExactly("/opt/bin/npu-smi", "info", "-t", "topo");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "size: 0|probes.device_memory.size: '0' is not a size: it must be above 0",
        "size: -1GiB|probes.device_memory.size: '-1GiB' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)",
        "size: lots|probes.device_memory.size: 'lots' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)",
        "iterations: 0|probes.device_memory.iterations: must be between 1 and 100000, not 0",
        "warmup: -1|probes.device_memory.warmup: must be between 0 and 10000, not -1",
        "devices: [0, -1]|probes.device_memory.devices[1]: '-1' is not a device id: it must not be negative",
        "devices: [1, 0, 1]|probes.device_memory.devices[2]: device 1 is listed twice",
        "devices: [x]|probes.device_memory.devices[0]: 'x' is not a device id (use e.g. 0)",
        "sizes: 1GiB|probes.device_memory.sizes: unknown key, did you mean 'size'? (valid here: cron, deadline, devices, enabled, every, iterations, size, warmup)",
      })
  void invalidDeviceMemory(String entry, String message) {
    assertThatThrownBy(
            () -> ConfigLoader.parse("test.yaml", "probes:\n  device_memory:\n    " + entry + "\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("test.yaml: " + message);
  }

  @Test
  void topologyHasNoKeysOfItsOwn() {
    assertThatThrownBy(
            () -> ConfigLoader.parse("test.yaml", "probes:\n  topology:\n    command: npu-smi\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "test.yaml: probes.topology.command: unknown key (valid here: cron, deadline, enabled, every)");
  }

  @Test
  void settingsCrossTheWorkerBoundaryAsJson() throws Exception {
    for (ProbeSettings s :
        List.of(
            new DeviceMemorySettings(256L << 20, 1, 3, List.of(0, 1)),
            (ProbeSettings) new TopologySettings())) {
      String json = ProbeKind.JSON.write(s);
      assertThat(ProbeKind.JSON.read(json, ProbeSettings.class)).isEqualTo(s);
    }
  }
}
