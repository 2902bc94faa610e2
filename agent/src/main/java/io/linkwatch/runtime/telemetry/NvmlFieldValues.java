package io.linkwatch.runtime.telemetry;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalLong;

/**
 * Writes requests into, and reads answers from, an array of {@code nvmlFieldValue_t} (40 bytes:
 * fieldId@0, scopeId@4, timestamp@8, latencyUsec@16, valueType@24, nvmlReturn@28, value@32) as
 * {@code nvmlDeviceGetFieldValues} fills it. Each entry carries its own return code: a field the
 * GPU does not support fails alone.
 */
public final class NvmlFieldValues {
  public static final int ENTRY_SIZE = 40;

  /** Cumulative NVLink data traffic in KiB, per link (scopeId) or summed (scopeId UINT_MAX). */
  public static final int FI_NVLINK_THROUGHPUT_DATA_TX = 138;

  public static final int FI_NVLINK_THROUGHPUT_DATA_RX = 139;

  /** NVML_FI_DEV_NVLINK_LINK_COUNT: how many NVLinks the GPU has. */
  public static final int FI_NVLINK_LINK_COUNT = 91;

  public static final long KIB = 1024;

  private static final int DOUBLE = 0;
  private static final int UINT = 1;
  private static final int ULONG = 2;
  private static final int ULONGLONG = 3;
  private static final int SLONGLONG = 4;
  private static final int SINT = 5;
  private static final int USHORT = 6;

  private NvmlFieldValues() {}

  /**
   * Fills entry {@code index} of {@code entries} with a request for {@code field} at {@code scope}.
   */
  public static void request(ByteBuffer entries, int index, int field, int scope) {
    ByteBuffer b = entries.duplicate().order(ByteOrder.nativeOrder());
    int at = index * ENTRY_SIZE;
    for (int i = 0; i < ENTRY_SIZE; i++) {
      b.put(at + i, (byte) 0);
    }
    b.putInt(at, field);
    b.putInt(at + 4, scope);
  }

  /** Entry {@code index}'s return code (0: its value is valid). */
  public static int status(ByteBuffer entries, int index) {
    return entries.duplicate().order(ByteOrder.nativeOrder()).getInt(index * ENTRY_SIZE + 28);
  }

  /**
   * Entry {@code index}'s value as an unsigned count, empty when it failed or is not an integer
   * (NVML's doubles are rates, never counters).
   */
  public static OptionalLong count(ByteBuffer entries, int index) {
    ByteBuffer b = entries.duplicate().order(ByteOrder.nativeOrder());
    int at = index * ENTRY_SIZE;
    if (b.getInt(at + 28) != 0) {
      return OptionalLong.empty();
    }
    int value = at + 32;
    return switch (b.getInt(at + 24)) {
      case UINT -> OptionalLong.of(Integer.toUnsignedLong(b.getInt(value)));
      case ULONG, ULONGLONG, SLONGLONG -> OptionalLong.of(b.getLong(value));
      case SINT -> OptionalLong.of(b.getInt(value));
      case USHORT -> OptionalLong.of(Short.toUnsignedLong(b.getShort(value)));
      default -> OptionalLong.empty(); // DOUBLE, or a type this version does not know
    };
  }
}
