package io.linkwatch.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GbpsTest {
  @Test
  void figuresFromOneGigabytePerSecondKeepOneDecimal() {
    assertThat(Gbps.format(105.06e9)).isEqualTo("105.1");
    assertThat(Gbps.format(1e9)).isEqualTo("1.0");
    assertThat(Gbps.format(0.996e9)).isEqualTo("1.0");
  }

  @Test
  void aSmallRealFigureNeverReadsAsZero() {
    // A 1KiB allreduce: 1024 bytes in ~270us, about 3.8 MB/s.
    assertThat(Gbps.format(3.79e6)).isEqualTo("0.0038");
    assertThat(Gbps.format(12.4e6)).isEqualTo("0.012");
    assertThat(Gbps.format(0.52e9)).isEqualTo("0.52");
    assertThat(Gbps.format(1)).isEqualTo("0.0000000010");
  }

  @Test
  void zeroIsZeroAndUnknownStaysVisible() {
    assertThat(Gbps.format(0)).isEqualTo("0");
    assertThat(Gbps.format(Double.NaN)).isEqualTo("NaN");
    assertThat(Gbps.withUnit(3.79e6)).isEqualTo("0.0038 GB/s");
  }
}
