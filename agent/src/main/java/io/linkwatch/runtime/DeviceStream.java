package io.linkwatch.runtime;

/** A stream on one device; copies and event records on it run in order. */
public final class DeviceStream extends Handle {
  private final int device;

  public DeviceStream(int device, long address, Runnable release) {
    super(address, release);
    this.device = device;
  }

  public int device() {
    return device;
  }
}
