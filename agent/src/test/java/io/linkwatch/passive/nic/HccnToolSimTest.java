package io.linkwatch.passive.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.telemetry.NpuPortReading;
import io.linkwatch.testing.SimControl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader against the sim's {@code hccn_tool} stand-in: what DCMI already gave is taken and its
 * options are not called; what it did not give is read from the tool.
 */
class HccnToolSimTest {
  @TempDir Path dir;

  private HccnTool tool() {
    Path program = Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool");
    return new HccnTool(
        program,
        Duration.ofSeconds(5),
        Map.of("PATH", System.getenv("PATH"), "LINKWATCH_SIM_CONTROL", control().toString()));
  }

  private Path control() {
    return dir.resolve("control");
  }

  private static long deadline() {
    return System.nanoTime() + Duration.ofSeconds(30).toNanos();
  }

  @Test
  void withoutDcmiEveryOptionIsCalledAndABrokenOneFailsTheRead() throws Exception {
    SimControl.write(control(), "nic 0 health Unreachable");
    HccnTool.Read whole = tool().read(0, deadline());
    assertThat(whole).isInstanceOf(HccnTool.Port.class);
    NicPort port = ((HccnTool.Port) whole).port();
    assertThat(port.health()).isEqualTo("Unreachable");
    assertThat(port.address()).isEqualTo("192.168.100.10");
    assertThat(port.errors()).containsKey("roce_new_pkt_rty").doesNotContainKey("roce_err_psn");

    SimControl.write(control(), "fail hccn_tool:-stat 1");
    HccnTool.Read broken = tool().read(0, deadline());
    assertThat(broken).isInstanceOf(HccnTool.Failed.class);
    assertThat(((HccnTool.Failed) broken).call()).isEqualTo("hccn_tool -stat");
  }

  @Test
  void whatDcmiGaveIsTakenAndItsOptionsAreNotCalled() throws Exception {
    // -stat and -ip would fail the read if called
    SimControl.write(
        control(),
        "fail hccn_tool:-stat 1",
        "fail hccn_tool:-ip 1",
        "nic 0 speed 200000",
        "nic 0 health Unreachable");
    NpuPortReading fromDcmi =
        new NpuPortReading(
            Map.of(
                "roce_new_pkt_rty_num", 7L,
                "roce_err_psn_num", 2L,
                "nic_tx_all_oct_num", 1000L,
                "nic_rx_all_oct_num", 2000L),
            "10.1.2.3");
    HccnTool.Read read = tool().read(0, deadline(), fromDcmi);
    assertThat(read).isInstanceOf(HccnTool.Port.class);
    NicPort port = ((HccnTool.Port) read).port();
    assertThat(port.health()).as("from the tool").isEqualTo("Unreachable");
    assertThat(port.address()).isEqualTo("10.1.2.3");
    assertThat(port.errors())
        .containsEntry("roce_new_pkt_rty", 7L)
        .containsEntry("roce_err_psn", 2L);
    assertThat(port.transmitBytes()).isEqualTo(1000L);
    assertThat(port.receiveBytes()).isEqualTo(2000L);
    // what no public call gives still comes from the tool
    assertThat(port.rateBitsPerSecond()).isEqualTo(200e9);
    assertThat(port.up()).isTrue();
    assertThat(port.neighbour()).isNotNull();
  }

  @Test
  void aPartDcmiDidNotGiveIsReadFromTheTool() throws Exception {
    SimControl.write(control(), "nic 0 health Fault");
    NpuPortReading countersOnly = new NpuPortReading(Map.of("roce_err_ack_num", 5L), null);
    NicPort port = ((HccnTool.Port) tool().read(0, deadline(), countersOnly)).port();
    assertThat(port.errors()).containsEntry("roce_err_ack", 5L);
    assertThat(port.health()).isEqualTo("Fault");
    assertThat(port.address()).isEqualTo("192.168.100.10");
  }
}
