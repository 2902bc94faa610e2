package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.devicememory.DeviceMemoryProbe;
import io.linkwatch.probe.hosttransfer.HostTransferProbe;
import org.junit.jupiter.api.Test;

class TargetDevicesTest {
  @Test
  void everyProbesTargetLabelNamesItsDevices() {
    assertThat(TargetDevices.of("0->1")).containsExactly(0, 1);
    assertThat(TargetDevices.of("0<->3")).containsExactly(0, 3); // p2p_bidirectional
    assertThat(TargetDevices.of("0,1,2,3")).containsExactly(0, 1, 2, 3);
    assertThat(TargetDevices.of("dev1")).containsExactly(1);
    assertThat(TargetDevices.of("dev1/node3")).containsExactly(1);
    assertThat(TargetDevices.of(HostTransferProbe.target(2, 7))).containsExactly(2);
    assertThat(TargetDevices.of(DeviceMemoryProbe.target(5))).containsExactly(5);
    assertThat(TargetDevices.of("links")).isEmpty();
    assertThat(TargetDevices.of("p2p")).isEmpty();
  }
}
