package io.linkwatch.host;

import com.sun.jna.Native;

/**
 * Loads {@link LibC} on first use, so classes that only parse text never touch native code, and
 * reports a missing libc (a non-glibc system) as a {@link HostException} instead of a linkage
 * error.
 */
final class NativeHost {
  private NativeHost() {}

  private static final class Holder {
    static final LibC LIBC = load();

    private static LibC load() {
      try {
        return Native.load("c", LibC.class);
      } catch (UnsatisfiedLinkError e) {
        throw new HostException("libc could not be loaded through JNA: " + e.getMessage(), e);
      }
    }
  }

  private static final class PageSize {
    static final long BYTES = libc().getpagesize();
  }

  static LibC libc() {
    return Holder.LIBC;
  }

  /** The base page size: 4 KiB on x86_64, 4 or 64 KiB on aarch64 depending on the kernel. */
  static long pageSize() {
    return PageSize.BYTES;
  }

  /** errno of the last native call made by this thread. */
  static int lastErrno() {
    return Native.getLastError();
  }
}
