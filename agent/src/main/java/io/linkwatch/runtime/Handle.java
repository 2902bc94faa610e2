package io.linkwatch.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A native resource owned by Java code: released exactly once, by {@link #close()}, whatever path
 * the caller takes. The runtime that created it supplies the release action.
 */
public abstract class Handle implements AutoCloseable {
  private final long address;
  private final Runnable release;
  private final AtomicBoolean open = new AtomicBoolean(true);

  protected Handle(long address, Runnable release) {
    this.address = address;
    this.release = release;
  }

  /** The native pointer value; meaningful only to the runtime that made it. */
  public long address() {
    return address;
  }

  public boolean isOpen() {
    return open.get();
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      release.run();
    }
  }
}
