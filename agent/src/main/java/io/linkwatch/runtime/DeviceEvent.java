package io.linkwatch.runtime;

/** A device event: recorded on a stream, it marks a point in device time. */
public final class DeviceEvent extends Handle {
  private final int device;

  public DeviceEvent(int device, long address, Runnable release) {
    super(address, release);
    this.device = device;
  }

  public int device() {
    return device;
  }
}
