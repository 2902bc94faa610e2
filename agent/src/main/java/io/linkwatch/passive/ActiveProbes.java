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
  private boolean reading;

  /** A probe run starts on {@code devices} (empty: all): waits for a read round to end first. */
  public synchronized void begin(String probe, Set<Integer> devices) throws InterruptedException {
    while (reading) {
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
    reading = true;
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
    reading = false;
    notifyAll();
  }
}
