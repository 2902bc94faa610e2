package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.passive.nic.NicPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortExpectationsTest {
  static final ExpectedPorts NPU_ROW =
      new ExpectedPorts("Ascend910B", PassiveSource.HCCN_TOOL, 400e9, 0, "operator");

  static PassiveStore.NicState ib(String nic, String state, Double rate) {
    return new PassiveStore.NicState(
        PassiveSource.INFINIBAND,
        new NicPort(nic, 1, "InfiniBand", state, null, rate, null, null, null, Map.of(), null),
        true,
        0);
  }

  /** Eight H200 rails at 400 Gb/s, plus a management port at 100 Gb/s. */
  static List<PassiveStore.NicState> hgx(int rails) {
    List<PassiveStore.NicState> ports = new ArrayList<>();
    for (int i = 0; i < rails; i++) {
      ports.add(ib("mlx5_" + i, NicPort.ACTIVE, 400e9));
    }
    ports.add(ib("mlx5_mgmt", NicPort.ACTIVE, 100e9));
    return ports;
  }

  static PortExpectations h200(List<ExpectedPorts> table) {
    return new PortExpectations(table, () -> Map.of(0, "NVIDIA H200", 1, "NVIDIA H200"));
  }

  @Test
  void anHgxHostIsHeldToGpudsEightRailsAndAManagementPortDoesNotCount() {
    var counts = h200(ExpectedPorts.SHIPPED).counts(hgx(8), Set.of(PassiveSource.INFINIBAND));
    assertThat(counts).hasSize(1); // two H200s, one row
    var c = counts.get(0);
    assertThat(c.count()).isEqualTo(8);
    assertThat(c.atSpeed()).isEqualTo(8);
    assertThat(c.shortOfCount()).isFalse();
    assertThat(c.source()).startsWith("gpud:");
  }

  @Test
  void aRailDownOrTrainedSlowOrMissingLeavesTheHostShort() {
    List<PassiveStore.NicState> ports = hgx(7); // one adapter gone from sysfs
    var c = h200(ExpectedPorts.SHIPPED).counts(ports, Set.of(PassiveSource.INFINIBAND)).get(0);
    assertThat(c.atSpeed()).isEqualTo(7);
    assertThat(c.shortOfCount()).isTrue();

    ports = hgx(8);
    ports.set(2, ib("mlx5_2", "DOWN", null));
    ports.set(5, ib("mlx5_5", NicPort.ACTIVE, 200e9));
    c = h200(ExpectedPorts.SHIPPED).counts(ports, Set.of(PassiveSource.INFINIBAND)).get(0);
    assertThat(c.atSpeed()).isEqualTo(6);
  }

  @Test
  void aHostWhoseReaderNeverFoundAPortIsNotHeldToACount() {
    // an Ethernet-only H200 host: /sys/class/infiniband is empty, so no count row
    assertThat(h200(ExpectedPorts.SHIPPED).counts(List.of(), Set.of())).isEmpty();
  }

  @Test
  void onlyAnNpusOwnPortIsHeldToTheSpeedOfItsProductsRow() {
    var e =
        new PortExpectations(
            List.of(NPU_ROW), () -> Map.of(0, "Ascend910B3", 1, "Ascend910B3", 2, "Ascend310P3"));
    assertThat(e.speedOf(PassiveSource.HCCN_TOOL, 0)).isEqualTo(400e9);
    assertThat(e.speedOf(PassiveSource.HCCN_TOOL, 2)).as("another product").isNull();
    assertThat(e.speedOf(PassiveSource.HCCN_TOOL, 7)).as("not in the inventory yet").isNull();
    assertThat(e.speedOf(PassiveSource.HCCN_TOOL, null)).isNull();
    assertThat(e.speedOf(PassiveSource.INFINIBAND, 0))
        .as("an adapter port may be a management port")
        .isNull();
    // a speed row without a count judges no count
    assertThat(e.counts(List.of(), Set.of(PassiveSource.HCCN_TOOL))).isEmpty();
  }

  @Test
  void nothingIsJudgedBeforeTheTopologyNamesTheDevices() {
    var e = new PortExpectations(ExpectedPorts.SHIPPED, Map::of);
    assertThat(e.counts(hgx(3), Set.of(PassiveSource.INFINIBAND))).isEmpty();
    assertThat(PortExpectations.NONE.speedOf(PassiveSource.HCCN_TOOL, 0)).isNull();
  }

  @Test
  void speedsAreWrittenAsPeopleSayThem() {
    assertThat(ExpectedPorts.formatSpeed(400e9)).isEqualTo("400 Gb/s");
    assertThat(ExpectedPorts.formatSpeed(56.25e9)).isEqualTo("56.3 Gb/s");
  }

  @Test
  void withDcmiOffTheNpuPortsReadAreTheInventorysDevicesAndDcmisListWinsOnceItHasOne() {
    PassiveStore store = new PassiveStore(java.time.Clock.systemUTC());
    assertThat(store.npuPortDevices()).as("nothing known yet").isEmpty();
    store.expectPorts(
        new PortExpectations(List.of(NPU_ROW), () -> Map.of(3, "Ascend910B", 0, "Ascend910B")));
    assertThat(store.npuPortDevices()).containsExactly(0, 3);
    store.recordLinks(
        new io.linkwatch.runtime.telemetry.DeviceLinks(
            5, "dcmi", null, List.of(), null, List.of(), null, null));
    assertThat(store.npuPortDevices()).containsExactly(5);
  }
}
