package io.linkwatch.probe;

import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.Memory;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Fills a source with a known pattern and checks that a copy of it arrived intact by comparing
 * sampled blocks (the first, the last and some between), read back to the host, with the pattern as
 * the host computed it. Comparing with what was written, not with a second readback, catches a copy
 * that corrupts data in either direction: a readback that corrupts would corrupt both sides of a
 * readback comparison alike. Sampling keeps the check cheap on 1 GiB buffers; a link that corrupts
 * data usually does so everywhere.
 */
public final class DataCheck {
  static final int BLOCK = 64 * 1024;
  private static final int SAMPLES = 8;
  private static final int PERIOD = 1 << 20;

  private final DeviceRuntime runtime;

  public DataCheck(DeviceRuntime runtime) {
    this.runtime = runtime;
  }

  /** What a fill wrote: the pattern of a seed, repeated every {@code bytes.length} bytes. */
  public static final class Pattern {
    private final byte[] period;

    private Pattern(byte[] period) {
      this.period = period;
    }

    /** The {@code length} bytes the fill wrote at {@code offset}. */
    byte[] at(long offset, int length) {
      byte[] out = new byte[length];
      int filled = 0;
      while (filled < length) {
        int from = (int) ((offset + filled) % period.length);
        int n = Math.min(length - filled, period.length - from);
        System.arraycopy(period, from, out, filled, n);
        filled += n;
      }
      return out;
    }
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
  public Pattern fill(DeviceBuffer target, long seed) {
    int first = (int) Math.min(target.size(), PERIOD);
    byte[] period = pattern(seed, first);
    try (HostBuffer staging = runtime.allocatePinned(first)) {
      staging.write(0, period, first);
      runtime.copy(target, 0, staging, 0, first);
    }
    long filled = first;
    while (filled < target.size()) {
      long n = Math.min(filled, target.size() - filled);
      runtime.copy(target, filled, target, 0, n);
      filled += n;
    }
    return new Pattern(period);
  }

  /** Fills a host buffer directly (pageable memory is written by the CPU that first touches it). */
  public static Pattern fill(HostBuffer target, long seed) {
    int chunk = (int) Math.min(target.size(), PERIOD);
    byte[] data = pattern(seed, chunk);
    for (long off = 0; off < target.size(); off += chunk) {
      target.write(off, data, (int) Math.min(chunk, target.size() - off));
    }
    return new Pattern(data);
  }

  /**
   * Compares sampled blocks of the first {@code bytes} of {@code actual} with what {@code written}
   * put there. Host memory is read by the CPU; device memory through a pinned staging buffer.
   *
   * @return empty when they match, else a description of the first mismatch
   */
  public String verify(Memory actual, long bytes, Pattern written) {
    int block = (int) Math.min(BLOCK, bytes);
    try (HostBuffer staging = actual instanceof HostBuffer ? null : runtime.allocatePinned(block)) {
      byte[] found = new byte[block];
      for (long offset : offsets(bytes, block)) {
        if (actual instanceof HostBuffer host) {
          host.read(offset, found, block);
        } else {
          runtime.copy(staging, 0, actual, offset, block);
          staging.read(0, found, block);
        }
        byte[] expected = written.at(offset, block);
        if (!Arrays.equals(expected, found)) {
          return String.format(
              "data mismatch in the block at offset %d: crc32 %08x expected, %08x found",
              offset, crc(expected), crc(found));
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
