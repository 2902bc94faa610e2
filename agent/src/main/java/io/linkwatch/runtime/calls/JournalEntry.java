package io.linkwatch.runtime.calls;

import java.util.Locale;

/**
 * One worker thread's last native call as its journal slot left it, e.g. {@code
 * JournalEntry[thread=allreduce-rank-1, function=HcclAllReduce, device=1, inCall=true, ...]}.
 *
 * @param device the device the call concerned; {@link CallJournal#NO_DEVICE} for none
 * @param inCall the thread had entered the call and not returned from it
 * @param slowest the slowest call the thread returned from; null before its first return
 */
public record JournalEntry(
    String thread,
    String function,
    int device,
    boolean inCall,
    long enteredAtMillis,
    long returnedAtMillis,
    Slowest slowest) {

  /** A call that returned, and how long it took. */
  public record Slowest(String function, int device, long millis) {
    public String where() {
      return JournalEntry.where(function, device);
    }
  }

  /** The call and its device as an operator reads it: {@code aclrtSynchronizeStream (device 1)}. */
  public String where() {
    return where(function, device);
  }

  static String where(String function, int device) {
    return device == CallJournal.NO_DEVICE
        ? function
        : String.format(Locale.ROOT, "%s (device %d)", function, device);
  }
}
