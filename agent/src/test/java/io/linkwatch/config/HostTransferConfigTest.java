package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.hosttransfer.HostTransferSettings;
import io.linkwatch.registry.ProbeKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code probes.host_transfer} keys: defaults, values, and each invalid value's message. */
class HostTransferConfigTest {
  private static HostTransferSettings settings(String yaml) {
    return (HostTransferSettings)
        ConfigLoader.parse("t.yaml", yaml).probes().get(ProbeKind.HOST_TRANSFER).settings();
  }

  @Test
  void defaults() {
    ProbeConfig probe = ConfigLoader.defaults().probes().get(ProbeKind.HOST_TRANSFER);
    assertThat(probe.schedule().every()).contains(Duration.ofMinutes(10));
    assertThat(probe.settings())
        .isEqualTo(
            new HostTransferSettings(
                List.of(64L << 20), 3, 10, List.of(), List.of(), List.of("pinned", "pageable")));
    assertThat(ProbeKind.HOST_TRANSFER.id()).isEqualTo("host_transfer");
    assertThat(ProbeKind.HOST_TRANSFER.cliName()).isEqualTo("host-transfer");
  }

  @Test
  void everyKey() {
    assertThat(
            settings(
                """
                probes:
                  host_transfer:
                    sizes: [4MiB, 64MiB, 1GiB]
                    warmup: 5
                    iterations: 20
                    devices: [0]
                    nodes: [0, 6]
                    memory: pageable
                """))
        .isEqualTo(
            new HostTransferSettings(
                List.of(4L << 20, 64L << 20, 1L << 30),
                5,
                20,
                List.of(0),
                List.of(0, 6),
                List.of("pageable")));
  }

  /** Nodes are checked against the topology only when the probe runs, on its machine. */
  @Test
  void anyNodeNumberIsAcceptedHere() {
    assertThat(settings("probes: {host_transfer: {nodes: [9, 250]}}").nodes())
        .containsExactly(9, 250);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          sizes: []              | t.yaml: probes.host_transfer.sizes: must not be empty
          sizes: [64Mib]         | t.yaml: probes.host_transfer.sizes[0]: '64Mib' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)
          warmup: -1             | t.yaml: probes.host_transfer.warmup: must be between 0 and 10000, not -1
          iterations: 0          | t.yaml: probes.host_transfer.iterations: must be between 1 and 100000, not 0
          devices: [a]           | t.yaml: probes.host_transfer.devices[0]: 'a' is not a device id (use e.g. 0)
          devices: [-1]          | t.yaml: probes.host_transfer.devices[0]: '-1' is not a device id: it must not be negative
          nodes: [0, x]          | t.yaml: probes.host_transfer.nodes[1]: 'x' is not a NUMA node number (use 0, 1, ...)
          nodes: {a: 1}          | t.yaml: probes.host_transfer.nodes: must be a list
          memory: [pinned, huge] | t.yaml: probes.host_transfer.memory[1]: 'huge' is not a kind of host memory (use pinned or pageable)
          memory: []             | t.yaml: probes.host_transfer.memory: must not be empty
          size: 64MiB            | t.yaml: probes.host_transfer.size: unknown key, did you mean 'sizes'? (valid here: cron, deadline, devices, enabled, every, iterations, memory, nodes, sizes, warmup)
          """)
  void invalidValues(String entry, String message) {
    assertThatThrownBy(() -> settings("probes:\n  host_transfer:\n    " + entry + "\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  @Test
  void settingsTravelToTheWorkerAsJson() throws Exception {
    ProbeSettings s =
        new HostTransferSettings(
            List.of(1L << 20), 1, 2, List.of(1), List.of(3), List.of("pinned"));
    String json = ProbeKind.JSON.write(s);
    assertThat(json).contains("\"type\":\"HostTransferSettings\"");
    assertThat(ProbeKind.JSON.read(json, ProbeSettings.class)).isEqualTo(s);
  }
}
