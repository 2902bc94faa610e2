package io.linkwatch.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Threads only while jobs run, never more than threadCount at once, none after shutdown. */
class OnDemandThreadPoolTest {
  private static OnDemandThreadPool pool(int threads) throws Exception {
    OnDemandThreadPool p = new OnDemandThreadPool(threads, "t");
    p.initialize();
    return p;
  }

  @Test
  void noThreadWaitsForWorkBeforeTheFirstJob() throws Exception {
    OnDemandThreadPool p = pool(3);
    assertThat(p.liveThreads()).isZero();
    assertThat(p.blockForAvailableThreads()).isEqualTo(3);

    CountDownLatch ran = new CountDownLatch(1);
    assertThat(p.runInThread(ran::countDown)).isTrue();
    assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(p.liveThreads()).isEqualTo(1);
    p.shutdown(true);
  }

  @Test
  void aJobBeyondTheThreadCountWaitsForAFreeThread() throws Exception {
    OnDemandThreadPool p = pool(2);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    Runnable job =
        () -> {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          running.decrementAndGet();
        };
    p.runInThread(job);
    p.runInThread(job);
    Thread third = new Thread(() -> p.runInThread(job));
    third.start();
    third.join(300);
    assertThat(third.isAlive()).as("the third job waits for a thread").isTrue();

    release.countDown();
    third.join(5000);
    p.shutdown(true);
    assertThat(most.get()).isEqualTo(2);
    assertThat(running.get()).isZero();
  }

  @Test
  void afterShutdownNothingRuns() throws Exception {
    OnDemandThreadPool p = pool(1);
    p.shutdown(true);
    assertThat(p.runInThread(() -> {})).isFalse();
  }
}
