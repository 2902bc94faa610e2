package io.linkwatch.passive;

import java.util.Optional;
import java.util.Set;

/**
 * Keeps passive reads and active measurements apart on a device: a probe run does not start while a
 * read round is in progress, and a round started during a probe run leaves out the devices the run
 * measures. The vendor warns that its own counter polling (DCMI) skews bandwidth tests, and a
 * passive read costs a few milliseconds, so the probe waits for it rather than the other way round.
 */
public final class ActiveProbes {
  /** A probe run in progress and the devices it measures; empty devices: all of them. */
  public record Measurement(String probe, Set<Integer> devices) {
    public Measurement {
      devices = Set.copyOf(devices);
    }

    public boolean allDevices() {
      return devices.isEmpty();
    }

    public boolean measures(int device) {
      return devices.isEmpty() || devices.contains(device);
    }
  }

  private Measurement current;

  /** Read rounds in progress: the vendor library's and hccn_tool's run on threads of their own. */
  private int readers;

  /** A probe run starts on {@code devices} (empty: all): waits for read rounds to end first. */
  public synchronized void begin(String probe, Set<Integer> devices) throws InterruptedException {
    while (readers > 0) {
      wait();
    }
    current = new Measurement(probe, devices);
  }

  /** The probe run of the last {@link #begin} ended. */
  public synchronized void end() {
    current = null;
    notifyAll();
  }

  /** A read round starts now: what it must leave alone, if anything. Pair with {@link #endRead}. */
  public synchronized Optional<Measurement> beginRead() {
    readers++;
    return Optional.ofNullable(current);
  }

  /**
   * A read of one device starts now unless a probe run measures it: true when it may (pair it with
   * {@link #endRead}), false when the device is being measured.
   */
  public synchronized boolean beginDeviceRead(int device) {
    if (current != null && current.measures(device)) {
      return false;
    }
    readers++;
    return true;
  }

  /** The probe run in progress, if any, without starting a read. */
  public synchronized Optional<Measurement> measuring() {
    return Optional.ofNullable(current);
  }

  /**
   * A read round starts once no probe run is in progress, or after {@code maxWait}: what it must
   * leave alone, if anything. Pair with {@link #endRead}.
   */
  public synchronized Optional<Measurement> beginRead(java.time.Duration maxWait)
      throws InterruptedException {
    long end = System.nanoTime() + maxWait.toNanos();
    while (current != null) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        break;
      }
      java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return beginRead();
  }

  public synchronized void endRead() {
    readers = Math.max(0, readers - 1);
    notifyAll();
  }
}
