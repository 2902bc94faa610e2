package io.linkwatch.probe.collective;

import io.linkwatch.host.HostBuffer;
import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import java.util.Locale;

/**
 * Fills device buffers with one fp16 value and checks sampled blocks of a result, for the
 * collective probes: rank r sends {@code r+1}, so an allreduce must give {@code n(n+1)/2}
 * everywhere and an allgather {@code k+1} in block k.
 */
final class Fp16Blocks {
  private static final int CHECK_BLOCK = 4096;
  private static final int CHECK_SAMPLES = 8;
  private static final int FILL_CHUNK = 1 << 20;

  private final DeviceRuntime runtime;

  Fp16Blocks(DeviceRuntime runtime) {
    this.runtime = runtime;
  }

  /** Fills {@code buffer} with {@code value}: a staged first chunk, then device-side doubling. */
  void fill(DeviceBuffer buffer, short value) {
    int first = (int) Math.min(buffer.size(), FILL_CHUNK);
    byte[] data = new byte[first];
    for (int i = 0; i + 1 < first; i += 2) {
      data[i] = (byte) value; // little-endian, as the device stores it
      data[i + 1] = (byte) (value >>> 8);
    }
    try (HostBuffer staging = runtime.allocatePinned(first)) {
      staging.write(0, data, first);
      runtime.copy(buffer, 0, staging, 0, first);
    }
    long filled = first;
    while (filled < buffer.size()) {
      long chunk = Math.min(filled, buffer.size() - filled);
      runtime.copy(buffer, filled, buffer, 0, chunk);
      filled += chunk;
    }
  }

  /**
   * Reads sampled blocks of {@code length} bytes of {@code buffer} from {@code offset} and checks
   * that every element is {@code expectedValue}.
   *
   * @param what prefixes the mismatch message, e.g. {@code allreduce 0,1 1KiB}
   * @throws DataMismatchException naming the rank, the element, the value expected and the one
   *     found
   */
  void check(
      DeviceBuffer buffer,
      long offset,
      long length,
      int expectedValue,
      String what,
      RankGroup.Rank rank) {
    short expected = Fp16.encode(expectedValue);
    int block = (int) Math.min(CHECK_BLOCK, length);
    byte[] data = new byte[block];
    try (HostBuffer host = runtime.allocatePinned(block)) {
      for (long at : sampleOffsets(length, block)) {
        runtime.copy(host, 0, buffer, offset + at, block);
        host.read(0, data, block);
        for (int i = 0; i + 1 < block; i += 2) {
          short found = (short) ((data[i] & 0xff) | (data[i + 1] & 0xff) << 8);
          if (found != expected) {
            throw new DataMismatchException(
                String.format(
                    Locale.ROOT,
                    "%s: result mismatch on rank %d (device %d) at element %d: expected %d (fp16"
                        + " 0x%04x), found %s (fp16 0x%04x)",
                    what,
                    rank.rank(),
                    rank.device(),
                    (offset + at + i) / 2,
                    expectedValue,
                    expected & 0xffff,
                    Fp16.decode(found),
                    found & 0xffff));
          }
        }
      }
    }
  }

  /** First block, last block and evenly spread ones between, each aligned to an element. */
  static long[] sampleOffsets(long bytes, int block) {
    long last = bytes - block;
    int count = last == 0 ? 1 : CHECK_SAMPLES;
    long[] offsets = new long[count];
    for (int i = 0; i < count; i++) {
      offsets[i] = count == 1 ? 0 : (last * i / (count - 1)) & ~1L;
    }
    offsets[count - 1] = last;
    return offsets;
  }
}
