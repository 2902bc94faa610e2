package io.linkwatch.host;

import java.util.ArrayList;
import java.util.List;

/**
 * glibc's {@code cpu_set_t} as bytes: 1024 bits, CPU {@code n} is bit {@code n % 8} of byte {@code
 * n / 8} (an array of little-endian {@code unsigned long}, which is what x86_64 and aarch64 are).
 * Example: CPUs {@code [0, 9]} are bytes {@code 01 02 00 ...}.
 */
final class CpuMask {
  /** {@code sizeof(cpu_set_t)} in glibc. */
  static final int BYTES = 128;

  static final int MAX_CPUS = BYTES * 8;

  private CpuMask() {}

  static byte[] toBytes(List<Integer> cpus) {
    byte[] mask = new byte[BYTES];
    for (int cpu : cpus) {
      if (cpu < 0 || cpu >= MAX_CPUS) {
        throw new HostException(
            "CPU "
                + cpu
                + " does not fit in a "
                + MAX_CPUS
                + "-CPU cpu_set_t (cpus "
                + CpuList.format(cpus)
                + ")");
      }
      mask[cpu / 8] |= (byte) (1 << (cpu % 8));
    }
    return mask;
  }

  static List<Integer> fromBytes(byte[] mask) {
    List<Integer> cpus = new ArrayList<>();
    for (int i = 0; i < mask.length * 8; i++) {
      if ((mask[i / 8] & (1 << (i % 8))) != 0) {
        cpus.add(i);
      }
    }
    return List.copyOf(cpus);
  }
}
