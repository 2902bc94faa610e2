package io.linkwatch.runtime;

import io.linkwatch.host.Memory;

/** Memory on one device, from {@link DeviceRuntime#allocate(int, long)}. */
public final class DeviceBuffer extends Handle implements Memory {
  private final int device;
  private final long size;

  public DeviceBuffer(int device, long address, long size, Runnable release) {
    super(address, release);
    this.device = device;
    this.size = size;
  }

  public int device() {
    return device;
  }

  @Override
  public long size() {
    return size;
  }
}
