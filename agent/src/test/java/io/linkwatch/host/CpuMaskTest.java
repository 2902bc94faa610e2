package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuMaskTest {
  @Test
  void cpuNIsBitNModulo8OfByteNDiv8() {
    byte[] mask = CpuMask.toBytes(List.of(0, 9, 1023));
    assertThat(mask).hasSize(128);
    assertThat(mask[0]).isEqualTo((byte) 0x01);
    assertThat(mask[1]).isEqualTo((byte) 0x02);
    assertThat(mask[127]).isEqualTo((byte) 0x80);
    assertThat(CpuMask.fromBytes(mask)).containsExactly(0, 9, 1023);
  }

  @Test
  void cpuBeyondCpuSetTIsAClearError() {
    assertThatThrownBy(() -> CpuMask.toBytes(List.of(3, 1024)))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("CPU 1024")
        .hasMessageContaining("1024-CPU cpu_set_t");
  }
}
