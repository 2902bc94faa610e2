package io.linkwatch.probe.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class Fp16Test {
  @Test
  void encodesSmallWholeNumbersExactly() {
    assertThat(Fp16.encode(0)).isEqualTo((short) 0x0000);
    assertThat(Fp16.encode(1)).isEqualTo((short) 0x3c00);
    assertThat(Fp16.encode(2)).isEqualTo((short) 0x4000);
    assertThat(Fp16.encode(3)).isEqualTo((short) 0x4200);
    assertThat(Fp16.encode(10)).isEqualTo((short) 0x4900);
    assertThat(Fp16.encode(136)).isEqualTo((short) 0x5840);
    assertThat(Fp16.encode(2047)).isEqualTo((short) 0x67ff);
    assertThat(Fp16.encode(2048)).isEqualTo((short) 0x6800);
    assertThat(Fp16.encode(2050)).isEqualTo((short) 0x6801);
    assertThat(Fp16.encode(65504)).isEqualTo((short) 0x7bff);
  }

  @Test
  void decodesWhatItEncodes() {
    for (int v = 0; v <= 2048; v++) {
      assertThat(Fp16.decode(Fp16.encode(v))).isEqualTo(v);
    }
    assertThat(Fp16.decode((short) 0xbc00)).isEqualTo(-1.0);
    assertThat(Fp16.decode((short) 0x3800)).isEqualTo(0.5);
    assertThat(Fp16.decode((short) 0x7c00)).isInfinite();
  }

  @Test
  void refusesWhatHalfCannotHoldExactly() {
    assertThatThrownBy(() -> Fp16.encode(2049))
        .hasMessage("2049 is not exactly representable in fp16");
    assertThatThrownBy(() -> Fp16.encode(-1)).hasMessage("-1 is outside 0..65504");
    assertThatThrownBy(() -> Fp16.encode(65505)).hasMessage("65505 is outside 0..65504");
  }

  @Test
  void samplesFirstAndLastBlocksAndSomeBetweenOnElementBoundaries() {
    assertThat(Fp16Blocks.sampleOffsets(1024, 1024)).containsExactly(0);
    long[] offsets = Fp16Blocks.sampleOffsets(1L << 30, 4096);
    assertThat(offsets).hasSize(8);
    assertThat(offsets[0]).isZero();
    assertThat(offsets[7]).isEqualTo((1L << 30) - 4096);
    assertThat(offsets).isSorted();
    assertThat(java.util.Arrays.stream(offsets)).allMatch(o -> o % 2 == 0);
  }
}
