package io.linkwatch.host;

import com.sun.jna.Native;

/**
 * Loads {@link LibC} on first use, so classes that only parse text never touch native code, and
 * reports a missing libc (a non-glibc system) as a {@link HostException} instead of a linkage
 * error.
 */
final class NativeHost {
  private NativeHost() {}

  // Keeps the load failure instead of throwing from the static initializer: that would surface as
  // ExceptionInInitializerError once and NoClassDefFoundError on every later call.
  private static final class Holder {
    static final LibC LIBC;
    static final UnsatisfiedLinkError FAILURE;

    static {
      LibC libc = null;
      UnsatisfiedLinkError failure = null;
      try {
        libc = Native.load("c", LibC.class);
      } catch (UnsatisfiedLinkError e) {
        failure = e;
      }
      LIBC = libc;
      FAILURE = failure;
    }
  }

  private static volatile long pageSize;

  static LibC libc() {
    if (Holder.LIBC == null) {
      throw new HostException(
          "libc could not be loaded through JNA: " + Holder.FAILURE.getMessage(), Holder.FAILURE);
    }
    return Holder.LIBC;
  }

  /** The base page size: 4 KiB on x86_64, 4 or 64 KiB on aarch64 depending on the kernel. */
  static long pageSize() {
    long bytes = pageSize;
    if (bytes == 0) {
      bytes = libc().getpagesize();
      pageSize = bytes;
    }
    return bytes;
  }

  /** errno of the last native call made by this thread. */
  static int lastErrno() {
    return Native.getLastError();
  }
}
