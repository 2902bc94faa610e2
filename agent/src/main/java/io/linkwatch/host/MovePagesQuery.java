package io.linkwatch.host;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.OptionalLong;

/**
 * {@link PageNodeQuery} over {@code move_pages(0, count, pages, NULL, status, 0)}: with {@code
 * nodes} NULL the kernel moves nothing, only writes each page's node into {@code status}, and
 * (unlike {@code get_mempolicy}) does not fault missing pages in. Reached through {@code syscall()}
 * because glibc has no wrapper. Docker's and containerd's default seccomp profiles refuse it with
 * {@code EPERM}.
 */
public final class MovePagesQuery implements PageNodeQuery {
  private final OptionalLong syscallNumber;

  private MovePagesQuery(OptionalLong syscallNumber) {
    this.syscallNumber = syscallNumber;
  }

  /** For the architecture this JVM runs on. */
  public static MovePagesQuery system() {
    return new MovePagesQuery(SyscallNumbers.movePages(System.getProperty("os.arch", "")));
  }

  @Override
  public int[] nodesOf(long[] pageAddresses) {
    if (syscallNumber.isEmpty()) {
      throw new HostException("move_pages on " + System.getProperty("os.arch"), Errno.ENOSYS);
    }
    int count = pageAddresses.length;
    if (count == 0) {
      return new int[0];
    }
    Memory pages = new Memory((long) count * Native.POINTER_SIZE);
    for (int i = 0; i < count; i++) {
      pages.setPointer((long) i * Native.POINTER_SIZE, new Pointer(pageAddresses[i]));
    }
    Memory status = new Memory((long) count * Integer.BYTES);
    long rc =
        NativeHost.libc()
            .syscall(
                syscallNumber.getAsLong(),
                0L, // pid 0: this process
                (long) count,
                pages,
                null, // nodes NULL: query, do not move
                status,
                0L);
    if (rc < 0) {
      throw new HostException("move_pages(" + count + " pages)", NativeHost.lastErrno());
    }
    return status.getIntArray(0, count);
  }
}
