package io.linkwatch.process;

import io.linkwatch.runtime.calls.JournalEntry;
import io.linkwatch.util.Durations;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Says where a worker was when its run ended badly, from its call journal: the first thing a driver
 * engineer asks is which call hung or crashed, on which device.
 *
 * <pre>
 * timeout in aclrtSynchronizeStream (device 1) after 4.0 s: the run passed its deadline of 5s and the worker was killed
 * worker died with signal 6 (exit status 134) in aclrtMemcpyAsync (device 0); last stderr: linkwatch-sim: injected crash in aclrtMemcpyAsync
 * </pre>
 */
public final class PostMortem {
  /** How many of the worker's last stderr lines a crash report keeps, and how much of each. */
  public static final int STDERR_LINES = 3;

  public static final int STDERR_LINE_CHARS = 200;

  /** What went wrong and, when known, the driver call it happened in. */
  public record Finding(String error, String call) {}

  private PostMortem() {}

  /**
   * A run past its deadline. The call hung longest is the one named: threads that wait on it (other
   * ranks of a collective, say) entered theirs later.
   */
  public static Finding timeout(
      List<JournalEntry> journal, Duration deadline, long killedAtMillis) {
    return timeout(journal, deadline, killedAtMillis, "worker", "run");
  }

  /**
   * The same for any process: {@code process} names it ({@code watcher}), {@code what} the work
   * that passed its deadline ({@code read round}).
   */
  public static Finding timeout(
      List<JournalEntry> journal,
      Duration deadline,
      long killedAtMillis,
      String process,
      String what) {
    String killed =
        "the "
            + what
            + " did not finish within its deadline of "
            + Durations.format(deadline)
            + "; the "
            + process
            + " was killed";
    List<JournalEntry> inCall = inCallOldestFirst(journal);
    if (!inCall.isEmpty()) {
      JournalEntry hung = inCall.get(0);
      String error =
          String.format(
                  Locale.ROOT,
                  "timeout in %s after %.1f s: the %s passed its deadline of %s and the %s"
                      + " was killed",
                  hung.where(),
                  Math.max(0, killedAtMillis - hung.enteredAtMillis()) / 1e3,
                  what,
                  Durations.format(deadline),
                  process)
              + alsoIn(inCall.subList(1, inCall.size()));
      return new Finding(error, hung.function());
    }
    Optional<JournalEntry> last = lastReturned(journal);
    if (last.isEmpty()) {
      return new Finding(killed, "");
    }
    // No thread was in a call at the kill: maybe one was stuck until just before it. The slowest
    // call is named, and blamed when it took at least half the deadline.
    Optional<JournalEntry.Slowest> slowest =
        journal.stream()
            .map(JournalEntry::slowest)
            .filter(Objects::nonNull)
            .max(Comparator.comparingLong(JournalEntry.Slowest::millis));
    String slowestText =
        slowest
            .map(
                c ->
                    String.format(
                        Locale.ROOT,
                        "the slowest call, %s, took %.1f s; ",
                        c.where(),
                        c.millis() / 1e3))
            .orElse("");
    String call =
        slowest
            .filter(c -> c.millis() * 2 >= deadline.toMillis())
            .map(c -> c.function())
            .orElse("");
    return new Finding(
        String.format(
            Locale.ROOT,
            "%s; it was in no driver call then (%sthe last, %s, had returned %.1f s before)",
            killed,
            slowestText,
            last.get().where(),
            Math.max(0, killedAtMillis - last.get().returnedAtMillis()) / 1e3),
        call);
  }

  /**
   * A worker that exited without a result. The call entered last is the one named: a crash happens
   * in the call a thread is in, and the other threads entered theirs before.
   */
  public static Finding died(List<JournalEntry> journal, int status, List<String> stderrTail) {
    return died(journal, status, stderrTail, "worker");
  }

  /** The same for any process, which {@code process} names ({@code watcher}). */
  public static Finding died(
      List<JournalEntry> journal, int status, List<String> stderrTail, String process) {
    String exit = describeExit(status, process);
    List<JournalEntry> inCall = inCallOldestFirst(journal);
    String where = "";
    String call = "";
    if (!inCall.isEmpty()) {
      JournalEntry last = inCall.get(inCall.size() - 1);
      where = " in " + last.where();
      call = last.function();
    } else if (!journal.isEmpty()) {
      where = " in no driver call";
    }
    return new Finding(exit + where + stderr(stderrTail), call);
  }

  public static String describeExit(int status) {
    return describeExit(status, "worker");
  }

  public static String describeExit(int status, String process) {
    if (status > 128) {
      return process + " died with signal " + (status - 128) + " (exit status " + status + ")";
    }
    return process + " exited with status " + status + " without a result";
  }

  private static List<JournalEntry> inCallOldestFirst(List<JournalEntry> journal) {
    return journal.stream()
        .filter(JournalEntry::inCall)
        .sorted(Comparator.comparingLong(JournalEntry::enteredAtMillis))
        .toList();
  }

  private static Optional<JournalEntry> lastReturned(List<JournalEntry> journal) {
    return journal.stream().max(Comparator.comparingLong(JournalEntry::returnedAtMillis));
  }

  private static String alsoIn(List<JournalEntry> others) {
    if (others.isEmpty()) {
      return "";
    }
    return "; also in a call: "
        + others.stream().map(JournalEntry::where).distinct().collect(Collectors.joining(", "));
  }

  private static String stderr(List<String> tail) {
    if (tail.isEmpty()) {
      return "";
    }
    return "; last stderr: "
        + tail.stream()
            .map(l -> l.length() > STDERR_LINE_CHARS ? l.substring(0, STDERR_LINE_CHARS) + "…" : l)
            .collect(Collectors.joining(" | "));
  }
}
