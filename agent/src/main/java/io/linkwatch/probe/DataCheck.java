package io.linkwatch.probe;

import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.HostBuffer;
import io.linkwatch.runtime.Memory;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Fills a source with a known pattern and checks that a copy of it arrived intact by comparing
 * checksums of sampled blocks (the first, the last and some between), read back to the host.
 * Sampling keeps the check cheap on 1 GiB buffers; a link that corrupts data usually does so
 * everywhere.
 */
public final class DataCheck {
  static final int BLOCK = 64 * 1024;
  private static final int SAMPLES = 8;

  private final DeviceRuntime runtime;

  public DataCheck(DeviceRuntime runtime) {
    this.runtime = runtime;
  }

  /** A block of pseudo-random bytes, the same for the same seed. */
  static byte[] pattern(long seed, int length) {
    byte[] data = new byte[length];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < length; i += 8) {
      long v = random.nextLong();
      for (int j = 0; j < 8 && i + j < length; j++) {
        data[i + j] = (byte) (v >>> (8 * j));
      }
    }
    return data;
  }

  /**
   * Writes the pattern to the start of {@code target} and doubles it with device-side copies until
   * the buffer is full, so filling 1 GiB costs a few copies, not a gigabyte over the host link.
   */
  public void fill(DeviceBuffer target, long seed) {
    int first = (int) Math.min(target.size(), 1 << 20);
    try (HostBuffer staging = runtime.allocatePinned(first)) {
      staging.write(0, pattern(seed, first), first);
      runtime.copy(target, 0, staging, 0, first);
    }
    long filled = first;
    while (filled < target.size()) {
      long n = Math.min(filled, target.size() - filled);
      runtime.copy(target, filled, target, 0, n);
      filled += n;
    }
  }

  /** Fills a host buffer directly (pageable memory is written by the CPU that first touches it). */
  public static void fill(HostBuffer target, long seed) {
    int chunk = (int) Math.min(target.size(), 1 << 20);
    byte[] data = pattern(seed, chunk);
    for (long off = 0; off < target.size(); off += chunk) {
      target.write(off, data, (int) Math.min(chunk, target.size() - off));
    }
  }

  /**
   * Compares sampled blocks of two equally sized buffers.
   *
   * @return empty when they match, else a description of the first mismatch
   */
  public String compare(Memory expected, Memory actual, long bytes) {
    int block = (int) Math.min(BLOCK, bytes);
    try (HostBuffer a = runtime.allocatePinned(block);
        HostBuffer b = runtime.allocatePinned(block)) {
      byte[] ea = new byte[block];
      byte[] eb = new byte[block];
      for (long offset : offsets(bytes, block)) {
        runtime.copy(a, 0, expected, offset, block);
        runtime.copy(b, 0, actual, offset, block);
        a.read(0, ea, block);
        b.read(0, eb, block);
        if (!Arrays.equals(ea, eb)) {
          return String.format(
              "data mismatch in the block at offset %d: crc32 %08x expected, %08x found",
              offset, crc(ea), crc(eb));
        }
      }
    }
    return "";
  }

  static long[] offsets(long bytes, int block) {
    long last = bytes - block;
    int n = last == 0 ? 1 : SAMPLES;
    long[] offsets = new long[n];
    for (int i = 0; i < n; i++) {
      offsets[i] = n == 1 ? 0 : (last * i / (n - 1)) / 64 * 64;
    }
    offsets[n - 1] = last;
    return offsets;
  }

  private static long crc(byte[] data) {
    CRC32 c = new CRC32();
    c.update(data);
    return c.getValue();
  }
}
