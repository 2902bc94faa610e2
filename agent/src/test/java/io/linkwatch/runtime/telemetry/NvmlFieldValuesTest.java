package io.linkwatch.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@code nvmlFieldValue_t} entries at the reference's offsets: 40 bytes, value at 32. */
class NvmlFieldValuesTest {
  @Test
  void requestsWriteFieldAndScopeAndClearTheRest() {
    ByteBuffer b = ByteBuffer.allocate(80).order(ByteOrder.nativeOrder());
    for (int i = 0; i < 80; i++) {
      b.put(i, (byte) 0x5a);
    }
    NvmlFieldValues.request(b, 1, NvmlFieldValues.FI_NVLINK_THROUGHPUT_DATA_RX, 17);
    assertThat(b.getInt(40)).isEqualTo(139);
    assertThat(b.getInt(44)).isEqualTo(17);
    assertThat(b.getLong(72)).isZero();
    assertThat(b.get(0)).isEqualTo((byte) 0x5a); // entry 0 untouched
  }

  @Test
  void valuesAreReadByTheirTypeAndAFailedEntryHasNone() {
    ByteBuffer b = ByteBuffer.allocate(160).order(ByteOrder.nativeOrder());
    // entry 0: ULONGLONG (3), ok
    b.putInt(24, 3);
    b.putLong(32, 1L << 50);
    // entry 1: UINT (1), ok, 0xFFFFFFFF reads unsigned
    b.putInt(40 + 24, 1);
    b.putInt(40 + 32, -1);
    // entry 2: NOT_SUPPORTED (3) in its own nvmlReturn
    b.putInt(80 + 24, 3);
    b.putInt(80 + 28, 3);
    // entry 3: DOUBLE (0): never a counter
    b.putInt(120 + 24, 0);
    assertThat(NvmlFieldValues.count(b, 0)).isEqualTo(OptionalLong.of(1L << 50));
    assertThat(NvmlFieldValues.count(b, 1)).isEqualTo(OptionalLong.of(0xFFFFFFFFL));
    assertThat(NvmlFieldValues.status(b, 2)).isEqualTo(3);
    assertThat(NvmlFieldValues.count(b, 2)).isEmpty();
    assertThat(NvmlFieldValues.count(b, 3)).isEmpty();
  }
}
