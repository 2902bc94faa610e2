package io.linkwatch.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class VerdictWatchTest {
  @Test
  void itJudgesOnlyWhenTheResultsMovedAndSurvivesAFailingJudgement() {
    AtomicLong version = new AtomicLong(1);
    AtomicInteger judged = new AtomicInteger();
    AtomicInteger failing = new AtomicInteger();
    VerdictWatch watch =
        new VerdictWatch(
            () -> {
              judged.incrementAndGet();
              if (failing.getAndDecrement() > 0) {
                throw new IllegalStateException("half a document");
              }
              return new Verdict(Verdict.State.OK, List.of(), "", List.of());
            },
            version::get,
            new VerdictLog()::observe);
    watch.judgeOnce();
    watch.judgeOnce();
    assertThat(judged).hasValue(1);
    version.incrementAndGet();
    failing.set(1);
    watch.judgeOnce();
    // The failed judgement is made again at the next tick, though nothing moved since.
    watch.judgeOnce();
    watch.judgeOnce();
    assertThat(judged).hasValue(3);
    watch.close();
  }
}
