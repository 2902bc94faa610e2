package io.linkwatch.passive.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader on the Prometheus procfs project's own {@code /sys/class/infiniband} fixture, with the
 * values procfs expects for the same files (its rates are bytes per second: x 8 here), and on what
 * real hosts also have: no adapters, a port without counters, a counter that says {@code N/A}.
 */
class InfinibandSysfsTest {
  static final Path PROCFS = Path.of("src/test/resources/fixtures/procfs-infiniband/sys");

  @TempDir Path tmp;

  @Test
  void theProcfsFixtureReadsAsProcfsReadsIt() throws IOException {
    List<NicPort> ports = new InfinibandSysfs(PROCFS).read();
    assertThat(ports)
        .extracting(NicPort::name)
        .containsExactly("hfi1_0 port 1", "mlx4_0 port 1", "mlx4_0 port 2", "mlx5_0 port 1");

    NicPort hfi = ports.get(0);
    assertThat(hfi.linkLayer()).isEqualTo("InfiniBand");
    assertThat(hfi.state()).isEqualTo("ACTIVE");
    assertThat(hfi.physState()).isEqualTo("LinkUp");
    assertThat(hfi.up()).isTrue();
    assertThat(hfi.rateBitsPerSecond()).isEqualTo(12_500_000_000.0 * 8);
    assertThat(hfi.receiveBytes()).isEqualTo(1380366808104L);
    assertThat(hfi.transmitBytes()).isEqualTo(1094233306172L);
    assertThat(hfi.linkDowned()).isZero();
    assertThat(hfi.errors()).containsEntry("symbol_error", 0L).containsEntry("VL15_dropped", 0L);

    assertThat(ports.get(1).rateBitsPerSecond()).isEqualTo(5_000_000_000.0 * 8);
    assertThat(ports.get(1).receiveBytes()).isEqualTo(8884894436L);
    assertThat(ports.get(1).transmitBytes()).isEqualTo(106036453180L);
    assertThat(ports.get(2).receiveBytes()).isEqualTo(9841747136L);
    assertThat(ports.get(2).transmitBytes()).isEqualTo(106161427560L);

    NicPort mlx5 = ports.get(3);
    assertThat(mlx5.physState()).isEqualTo("ACTIVE");
    assertThat(mlx5.rateBitsPerSecond()).isEqualTo(3_125_000_000.0 * 8);
    assertThat(mlx5.receiveBytes()).isEqualTo(72505381512L);
    assertThat(mlx5.transmitBytes()).isEqualTo(11523046035392L);
    // The driver's RoCE counters, beside the standard ones.
    assertThat(mlx5.errors())
        .containsEntry("local_ack_timeout_err", 131L)
        .containsEntry("out_of_sequence", 1L)
        .containsEntry("packet_seq_err", 1L)
        .containsEntry("duplicate_request", 41L);
  }

  @Test
  void aHostWithoutAdaptersHasNoPorts() throws IOException {
    assertThat(new InfinibandSysfs(tmp).read()).isEmpty();
  }

  /** A port without counters/ and one whose counter the adapter cannot read: no sentinel values. */
  @Test
  void missingAndUnreadableCountersAreLeftOut() throws IOException {
    Path port = tmp.resolve("class/infiniband/mlx5_3/ports/1");
    Files.createDirectories(port);
    Files.writeString(port.resolve("state"), "1: DOWN\n");
    Files.writeString(port.resolve("phys_state"), "3: Disabled\n");
    Files.writeString(port.resolve("rate"), "400 Gb/sec (4X NDR)\n");
    Files.writeString(port.resolve("link_layer"), "Ethernet\n");
    Path other = tmp.resolve("class/infiniband/mlx5_4/ports/1/counters");
    Files.createDirectories(other);
    Files.writeString(other.resolve("symbol_error"), "N/A (no PMA)\n");
    Files.writeString(other.resolve("port_xmit_data"), "N/A (no PMA)\n");
    Files.writeString(other.resolve("link_error_recovery"), "255\n");

    List<NicPort> ports = new InfinibandSysfs(tmp).read();
    NicPort down = ports.get(0);
    assertThat(down.up()).isFalse();
    assertThat(down.state()).isEqualTo("DOWN");
    assertThat(down.physState()).isEqualTo("Disabled");
    assertThat(down.rateBitsPerSecond()).isEqualTo(400e9);
    assertThat(down.transmitBytes()).isNull();
    assertThat(down.errors()).isEmpty();
    NicPort noPma = ports.get(1);
    assertThat(noPma.state()).isNull();
    assertThat(noPma.transmitBytes()).isNull();
    assertThat(noPma.errors()).containsOnlyKeys("link_error_recovery");
  }

  @Test
  void ratesOfEveryGeneration() {
    assertThat(InfinibandSysfs.rate("2.5 Gb/sec (1X SDR)")).contains(2.5e9);
    assertThat(InfinibandSysfs.rate("0 GB/sec")).contains(0.0);
    assertThat(InfinibandSysfs.rate("500 Gb/sec (4X HDR)")).contains(500e9);
    assertThat(InfinibandSysfs.rate("unknown")).isEmpty();
  }
}
