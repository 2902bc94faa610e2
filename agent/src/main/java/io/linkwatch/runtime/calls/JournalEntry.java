package io.linkwatch.runtime.calls;

import java.util.Locale;

/**
 * One worker thread's last native call as its journal slot left it, e.g. {@code
 * JournalEntry[thread=allreduce-rank-1, function=HcclAllReduce, device=1, inCall=true, ...]}.
 *
 * @param device the device the call concerned; {@link CallJournal#NO_DEVICE} for none
 * @param inCall the thread had entered the call and not returned from it
 */
public record JournalEntry(
    String thread,
    String function,
    int device,
    boolean inCall,
    long enteredAtMillis,
    long returnedAtMillis) {

  /** The call and its device as an operator reads it: {@code aclrtSynchronizeStream (device 1)}. */
  public String where() {
    return device == CallJournal.NO_DEVICE
        ? function
        : String.format(Locale.ROOT, "%s (device %d)", function, device);
  }
}
