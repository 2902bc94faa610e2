package io.linkwatch.passive;

import java.util.HashMap;
import java.util.Map;

/**
 * Turns the vendor's narrow counters (DCMI's 32-bit HCCS statistics, SIO's 16-bit CRC counts) into
 * counters that only grow, as Prometheus expects: a value below the last one is a wrap when the
 * last one was in the upper half of the range (it adds 2^bits), else a reset (a driver reload: the
 * counter starts again from the new value, and Prometheus' {@code rate()} sees the reset). 64-bit
 * counters pass through. Kept by the agent, not the watcher, so a replaced watcher does not look
 * like a reset.
 *
 * <p>e.g. 32 bits: 4294967000, then 200 gives 4294967496; then 5 (after a driver reload) gives 5.
 */
public final class CounterUnwrapper {
  private record State(long lastRaw, long base) {}

  private final Map<Object, State> states = new HashMap<>();

  /** The monotonic value of the counter {@code key} that now reads {@code raw} (unsigned). */
  public synchronized long next(Object key, long raw, int bits) {
    if (bits >= 64) {
      return raw;
    }
    long range = 1L << bits;
    State s = states.get(key);
    long base = 0;
    if (s != null) {
      base = s.base();
      if (Long.compareUnsigned(raw, s.lastRaw()) < 0) {
        base = s.lastRaw() >= range / 2 ? base + range : 0;
      }
    }
    states.put(key, new State(raw, base));
    return base + raw;
  }

  /** Forgets counters not seen again (a device gone, say). */
  public synchronized void retain(java.util.Set<?> keys) {
    states.keySet().retainAll(keys);
  }
}
