package io.linkwatch.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.runtime.DeviceProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The process table of {@code npu-smi info} and the device map of {@code npu-smi info -m}. */
class NpuSmiParsersTest {
  // As printed by npu-smi 25.2.3 on an Atlas 800T A3 (two chips per NPU), status table shortened.
  static final String INFO =
      """
      +------------------------------------------------------------------------------------------------+
      | npu-smi 25.2.3                   Version: 25.2.3                                               |
      +---------------------------+---------------+----------------------------------------------------+
      | NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
      | Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
      +===========================+===============+====================================================+
      | 0     Ascend910           | OK            | 178.3       37                0    / 0             |
      | 0     0                   | 0000:9D:00.0  | 0           0    / 0          53640/ 65536         |
      +---------------------------+---------------+----------------------------------------------------+
      | NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
      +===========================+===============+====================================================+
      | 0       0                 | 3325989       |                          | 50128                   |
      | 0       0                 | 3325990       | python3                  | 1024                    |
      +===========================+===============+====================================================+
      | No running processes found in NPU 2                                                            |
      +===========================+===============+====================================================+
      """;

  @Test
  void rowsGiveTheProcessesOfEachChipInBytes() {
    NpuSmiProcesses p = NpuSmiProcesses.parse(INFO);
    assertThat(p.of(new NpuSmiChip(0, 0)))
        .contains(
            List.of(
                new DeviceProcess(3325989, 50128L << 20), new DeviceProcess(3325990, 1024L << 20)));
    // A chip of a listed NPU without rows holds nothing; an NPU shown as empty holds nothing.
    assertThat(p.of(new NpuSmiChip(0, 1))).contains(List.of());
    assertThat(p.of(new NpuSmiChip(2, 0))).contains(List.of());
    // An NPU the table does not mention is unknown, not idle.
    assertThat(p.of(new NpuSmiChip(5, 0))).isEmpty();
  }

  @Test
  void aTableWithoutProcessesIsAnError() {
    assertThatThrownBy(() -> NpuSmiProcesses.parse("npu-smi: command not supported\n"))
        .hasMessage("no process table (no 'Process id' header)");
    assertThatThrownBy(
            () ->
                NpuSmiProcesses.parse(
                    "| NPU  Chip | Process id | Process name | Process memory(GB) |\n"))
        .hasMessageStartingWith("process memory is not in MB");
  }

  @Test
  void theDeviceMapFindsColumnsByName() {
    NpuSmiDeviceMap a3 =
        NpuSmiDeviceMap.parse(
            """
                    NPU ID                         Chip ID                        Chip Logic ID                  Chip Name
                    0                              0                              0                              Ascend910
                    0                              1                              1                              Ascend910
                    0                              2                              -                              Mcu
                    1                              0                              2                              Ascend910
            """);
    assertThat(a3.chip(1)).contains(new NpuSmiChip(0, 1));
    assertThat(a3.chip(2)).contains(new NpuSmiChip(1, 0));
    assertThat(a3.chip(3)).isEmpty();
    NpuSmiDeviceMap withPhy =
        NpuSmiDeviceMap.parse(
            """
            NPU ID  Chip ID  Chip Logic ID  Chip Phy-ID  Chip Name
            4       0        4              4            Ascend 910B3
            """);
    assertThat(withPhy.chip(4)).contains(new NpuSmiChip(4, 0));
    assertThatThrownBy(() -> NpuSmiDeviceMap.parse("NPU ID  Chip ID  Chip Name\n0  0  x\n"))
        .hasMessage("no 'Chip Logic ID' column");
  }
}
