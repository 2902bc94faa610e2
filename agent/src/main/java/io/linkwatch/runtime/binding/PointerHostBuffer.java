package io.linkwatch.runtime.binding;

import com.sun.jna.Pointer;
import io.linkwatch.host.HostBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/** A host buffer at a native address, released by the action it was made with. */
public final class PointerHostBuffer implements HostBuffer {
  private final Pointer pointer;
  private final long size;
  private final Runnable release;
  private final AtomicBoolean open = new AtomicBoolean(true);

  public PointerHostBuffer(Pointer pointer, long size, Runnable release) {
    this.pointer = pointer;
    this.size = size;
    this.release = release;
  }

  @Override
  public long address() {
    return Pointer.nativeValue(pointer);
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void write(long offset, byte[] data, int length) {
    pointer.write(offset, data, 0, length);
  }

  @Override
  public void read(long offset, byte[] into, int length) {
    pointer.read(offset, into, 0, length);
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      release.run();
    }
  }
}
