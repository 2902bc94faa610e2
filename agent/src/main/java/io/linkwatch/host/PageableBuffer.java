package io.linkwatch.host;

import com.sun.jna.Pointer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Pageable host memory with its own mapping: an anonymous private {@code mmap}, page-aligned (as
 * {@code move_pages} and {@code aclrtHostRegisterV2} need) and not touched at creation, so its
 * pages land where {@link #firstTouch()} is called:
 *
 * <pre>{@code
 * try (PageableBuffer buffer = PageableBuffer.map(64 << 20)) {
 *   ThreadAffinity.runPinned(node.cpus(), () -> { buffer.firstTouch(); return null; });
 *   Placement p = PagePlacement.system().of(buffer.address(), buffer.size());  // e.g. N5 = 16384
 * }
 * }</pre>
 *
 * The buffer sits between two inaccessible guard pages. Without them the kernel may merge the
 * mapping with a neighbouring anonymous one, and numa_maps (which counts per mapping) would mix the
 * buffer's pages with memory that is not the buffer's.
 */
public final class PageableBuffer implements HostBuffer {
  private static final int PROT_NONE = 0;
  private static final int PROT_READ = 1;
  private static final int PROT_WRITE = 2;
  private static final int MAP_PRIVATE = 0x02;
  private static final int MAP_ANONYMOUS = 0x20; // same value on x86_64 and aarch64

  private final Pointer base;
  private final long mappedBytes;
  private final Pointer data;
  private final long size;
  private final long pageSize;
  private final AtomicBoolean open = new AtomicBoolean(true);

  private PageableBuffer(Pointer base, long mappedBytes, long pageSize, long size) {
    this.base = base;
    this.mappedBytes = mappedBytes;
    this.pageSize = pageSize;
    this.data = base.share(pageSize);
    this.size = size;
  }

  /**
   * Maps {@code bytes} (rounded up to whole pages for the mapping; {@link #size()} stays {@code
   * bytes}).
   *
   * @throws HostException when mmap or mprotect fails (e.g. ENOMEM)
   */
  public static PageableBuffer map(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("buffer size must be positive, got " + bytes);
    }
    LibC libc = NativeHost.libc();
    long page = NativeHost.pageSize();
    long dataBytes = Math.addExact(bytes, page - 1) / page * page;
    long mapped = Math.addExact(dataBytes, 2 * page);
    Pointer base =
        libc.mmap(null, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == null || Pointer.nativeValue(base) == -1L) {
      throw new HostException("mmap(" + mapped + " bytes, anonymous)", NativeHost.lastErrno());
    }
    if (libc.mprotect(base, page, PROT_NONE) != 0
        || libc.mprotect(base.share(page + dataBytes), page, PROT_NONE) != 0) {
      int errno = NativeHost.lastErrno();
      libc.munmap(base, mapped);
      throw new HostException("mprotect(guard page)", errno);
    }
    return new PageableBuffer(base, mapped, page, bytes);
  }

  /**
   * Writes one byte in every page from the calling thread. Under the default memory policy each
   * page is allocated on that thread's node (or the nearest node with free memory) at this moment.
   */
  public void firstTouch() {
    checkOpen();
    for (long offset = 0; offset < size; offset += pageSize) {
      data.setByte(offset, (byte) 1);
    }
  }

  @Override
  public long address() {
    return Pointer.nativeValue(data);
  }

  @Override
  public long size() {
    return size;
  }

  public long pageSize() {
    return pageSize;
  }

  @Override
  public void write(long offset, byte[] source, int length) {
    checkOpen();
    Objects.checkFromIndexSize(offset, length, size);
    data.write(offset, source, 0, length);
  }

  @Override
  public void read(long offset, byte[] into, int length) {
    checkOpen();
    Objects.checkFromIndexSize(offset, length, size);
    data.read(offset, into, 0, length);
  }

  // An access after munmap would crash the JVM, not throw: refuse it here.
  private void checkOpen() {
    if (!open.get()) {
      throw new IllegalStateException("pageable buffer already closed");
    }
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      if (NativeHost.libc().munmap(base, mappedBytes) != 0) {
        throw new HostException("munmap(" + mappedBytes + " bytes)", NativeHost.lastErrno());
      }
    }
  }
}
