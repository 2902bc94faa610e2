package io.linkwatch.host;

import com.sun.jna.Library;
import com.sun.jna.Pointer;

/**
 * The glibc calls the host layer makes, as JNA sees them. No logic here: errors are read with
 * {@code Native.getLastError()} and translated by the callers. {@code size_t} and {@code off_t} map
 * to {@code long}, {@code pid_t} to {@code int}.
 *
 * <p>glibc does not export {@code move_pages} (libnuma does), so it is reached through {@link
 * #syscall}; see {@link SyscallNumbers}.
 */
public interface LibC extends Library {
  /** {@code pid} 0 is the calling thread; {@code mask} is a {@code cpu_set_t}, 128 bytes. */
  int sched_setaffinity(int pid, long cpusetsize, byte[] mask);

  int sched_getaffinity(int pid, long cpusetsize, byte[] mask);

  /**
   * glibc's variadic {@code long syscall(long number, ...)}. It reads every argument as a {@code
   * long}, so pass {@link Long} and {@link Pointer} values only: an {@link Integer} would leave the
   * upper half of the register undefined.
   */
  long syscall(long number, Object... args);

  Pointer mmap(Pointer addr, long length, int prot, int flags, int fd, long offset);

  int mprotect(Pointer addr, long length, int prot);

  int munmap(Pointer addr, long length);

  int getpagesize();

  /** {@code prctl(2)}; every argument as a {@code long}, as the kernel reads them. */
  int prctl(int option, long arg2, long arg3, long arg4, long arg5);
}
