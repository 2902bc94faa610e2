package io.linkwatch.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.calls.CallJournal;
import io.linkwatch.runtime.calls.JournalEntry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The words of a hang or crash report, from journal entries as a worker leaves them. */
class PostMortemTest {
  private static final long KILLED = 1_000_000L;

  private static JournalEntry inCall(String fn, int device, long enteredMillis) {
    return new JournalEntry("main", fn, device, true, enteredMillis, 0, null);
  }

  private static JournalEntry returned(String fn, int device, long returnedMillis) {
    return new JournalEntry(
        "main",
        fn,
        device,
        false,
        returnedMillis - 1,
        returnedMillis,
        new JournalEntry.Slowest(fn, device, 1));
  }

  @Test
  void aTimeoutNamesTheCallHungLongest() {
    PostMortem.Finding f =
        PostMortem.timeout(
            List.of(
                inCall("aclrtSynchronizeStream", 1, KILLED - 20_000),
                inCall("HcclAllReduce", 0, KILLED - 4_000)),
            Duration.ofSeconds(30),
            KILLED);
    assertThat(f.error())
        .isEqualTo(
            "timeout in aclrtSynchronizeStream (device 1) after 20.0 s: the run passed its"
                + " deadline of 30s and the worker was killed; also in a call: HcclAllReduce"
                + " (device 0)");
    assertThat(f.call()).isEqualTo("aclrtSynchronizeStream");
  }

  @Test
  void aTimeoutOutsideAnyCallSaysWhichReturnedLast() {
    PostMortem.Finding f =
        PostMortem.timeout(
            List.of(
                returned("aclrtMemcpy", 0, KILLED - 3_200),
                returned("aclInit", CallJournal.NO_DEVICE, KILLED - 9_000)),
            Duration.ofSeconds(5),
            KILLED);
    assertThat(f.error())
        .isEqualTo(
            "the run did not finish within its deadline of 5s; the worker was killed; it was in"
                + " no driver call then (the slowest call, aclrtMemcpy (device 0), took 0.0 s;"
                + " the last, aclrtMemcpy (device 0), had returned 3.2 s before)");
    assertThat(f.call()).isEmpty();
  }

  /**
   * A call stuck until just before the kill explains the timeout, though no call is in progress.
   */
  @Test
  void aTimeoutJustAfterAStuckCallReturnedBlamesIt() {
    JournalEntry unstuck =
        new JournalEntry(
            "main",
            "aclFinalize",
            CallJournal.NO_DEVICE,
            false,
            KILLED - 20,
            KILLED - 10,
            new JournalEntry.Slowest("aclrtSynchronizeStream", 0, 7_900));
    PostMortem.Finding f = PostMortem.timeout(List.of(unstuck), Duration.ofSeconds(8), KILLED);
    assertThat(f.error())
        .isEqualTo(
            "the run did not finish within its deadline of 8s; the worker was killed; it was in"
                + " no driver call then (the slowest call, aclrtSynchronizeStream (device 0), took"
                + " 7.9 s; the last, aclFinalize, had returned 0.0 s before)");
    assertThat(f.call()).isEqualTo("aclrtSynchronizeStream");
  }

  @Test
  void aTimeoutWithoutAJournalSaysOnlyThatTheDeadlinePassed() {
    assertThat(PostMortem.timeout(List.of(), Duration.ofMillis(800), KILLED).error())
        .isEqualTo("the run did not finish within its deadline of 800ms; the worker was killed");
  }

  @Test
  void aCrashNamesTheCallEnteredLastAndKeepsShortenedStderr() {
    String longLine = "x".repeat(300);
    PostMortem.Finding f =
        PostMortem.died(
            List.of(
                inCall("aclrtSynchronizeStream", 1, KILLED - 5_000),
                inCall("aclrtMemcpyAsync", 0, KILLED - 10)),
            134,
            List.of(longLine, "linkwatch-sim: injected crash in aclrtMemcpyAsync"));
    assertThat(f.error())
        .startsWith(
            "worker died with signal 6 (exit status 134) in aclrtMemcpyAsync (device 0); last"
                + " stderr: xxx")
        .contains("x… | linkwatch-sim: injected crash in aclrtMemcpyAsync")
        .doesNotContain("x".repeat(201));
    assertThat(f.call()).isEqualTo("aclrtMemcpyAsync");
  }

  @Test
  void anExitOutsideAnyCallSaysSo() {
    PostMortem.Finding f =
        PostMortem.died(
            List.of(returned("aclFinalize", CallJournal.NO_DEVICE, KILLED)), 1, List.of());
    assertThat(f.error())
        .isEqualTo("worker exited with status 1 without a result in no driver call");
    assertThat(f.call()).isEmpty();
  }
}
