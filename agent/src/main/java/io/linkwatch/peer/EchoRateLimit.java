package io.linkwatch.peer;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many echoes the responder answers a second: {@link #PER_SOURCE} from one address and {@link
 * #TOTAL} in all, counted per whole second. Far above what peers send (a train is one echo every 10
 * ms, a prober runs at most 4 at once: 400 a second from one host at the most), so a member is
 * never refused and its path never reads as lossy for it; a flood, or a forged source using this
 * host to reflect datagrams at another, is held to that rate. The sources are the most recent
 * {@link #REMEMBERED}, as the responder's other caches.
 */
final class EchoRateLimit {
  static final int PER_SOURCE = 1_000;
  static final int TOTAL = 20_000;
  private static final int REMEMBERED = 4096;

  private final int perSource;
  private final int total;
  private long second = Long.MIN_VALUE;
  private int answered;
  private final Map<InetAddress, Integer> bySource =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Integer> e) {
          return size() > REMEMBERED;
        }
      };

  EchoRateLimit() {
    this(PER_SOURCE, TOTAL);
  }

  EchoRateLimit(int perSource, int total) {
    this.perSource = perSource;
    this.total = total;
  }

  /** Whether an echo from {@code source} may be answered in the second {@code nowMillis} is in. */
  boolean allow(InetAddress source, long nowMillis) {
    long s = Math.floorDiv(nowMillis, 1000L);
    if (s != second) {
      second = s;
      answered = 0;
      bySource.clear();
    }
    int fromSource = bySource.getOrDefault(source, 0);
    if (fromSource >= perSource || answered >= total) {
      return false;
    }
    bySource.put(source, fromSource + 1);
    answered++;
    return true;
  }
}
