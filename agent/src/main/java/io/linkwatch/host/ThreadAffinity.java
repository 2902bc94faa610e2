package io.linkwatch.host;

import java.util.List;
import java.util.function.Supplier;

/**
 * The calling thread's CPU affinity through {@code sched_setaffinity(0, ...)} ({@code pid} 0 is the
 * calling thread, not the process, so other JVM threads keep running where they were). Used to
 * first-touch a buffer from a chosen node:
 *
 * <pre>{@code
 * ThreadAffinity.runPinned(List.of(320, 321), () -> { buffer.firstTouch(); return null; });
 * }</pre>
 *
 * Call it on a platform thread: a virtual thread can move between carrier threads, and the mask
 * would stay on the carrier. The kernel intersects the mask with the thread's cpuset, so a mask
 * holding no allowed CPU fails with {@code EINVAL}.
 */
public final class ThreadAffinity {
  private ThreadAffinity() {}

  /** The CPUs the calling thread may run on, ascending. */
  public static List<Integer> current() {
    byte[] mask = new byte[CpuMask.BYTES];
    if (NativeHost.libc().sched_getaffinity(0, mask.length, mask) != 0) {
      throw new HostException("sched_getaffinity(calling thread)", NativeHost.lastErrno());
    }
    return CpuMask.fromBytes(mask);
  }

  /**
   * Runs {@code work} on the calling thread restricted to {@code cpus}, then restores the thread's
   * previous mask, also when {@code work} throws.
   *
   * @throws HostException when the mask cannot be set (the message names the CPUs and the errno) or
   *     cannot be restored afterwards
   */
  public static <T> T runPinned(List<Integer> cpus, Supplier<T> work) {
    List<Integer> original = current();
    set(cpus);
    T result;
    try {
      result = work.get();
    } catch (RuntimeException | Error e) {
      try {
        set(original);
      } catch (HostException restore) {
        e.addSuppressed(restore);
      }
      throw e;
    }
    set(original);
    return result;
  }

  private static void set(List<Integer> cpus) {
    if (cpus.isEmpty()) {
      throw new HostException("sched_setaffinity needs at least one CPU, got an empty list");
    }
    byte[] mask = CpuMask.toBytes(cpus);
    if (NativeHost.libc().sched_setaffinity(0, mask.length, mask) != 0) {
      throw new HostException(
          "sched_setaffinity(calling thread, cpus " + CpuList.format(cpus) + ")",
          NativeHost.lastErrno());
    }
  }
}
