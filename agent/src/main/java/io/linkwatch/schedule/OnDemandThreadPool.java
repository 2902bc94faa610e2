package io.linkwatch.schedule;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.quartz.SchedulerConfigException;
import org.quartz.spi.ThreadPool;

/**
 * Quartz's thread pool with threads that exist only while there are probe runs: a thread starts for
 * a job and ends a minute after its last one. Quartz's own pool keeps {@code threadCount} threads
 * alive, each waking twice a second to look for work, which is most of what an idle agent costs
 * between runs.
 */
public final class OnDemandThreadPool implements ThreadPool {
  static final long IDLE_SECONDS = 60;

  private final int threadCount;
  private final String threadNamePrefix;
  private Semaphore free;
  private ThreadPoolExecutor executor;
  private volatile boolean shut;

  /** At most {@code threadCount} runs at once, on threads named {@code threadNamePrefix-N}. */
  public OnDemandThreadPool(int threadCount, String threadNamePrefix) {
    this.threadCount = threadCount;
    this.threadNamePrefix = threadNamePrefix;
  }

  @Override
  public void initialize() throws SchedulerConfigException {
    if (threadCount < 1) {
      throw new SchedulerConfigException("threadCount must be at least 1, not " + threadCount);
    }
    free = new Semaphore(threadCount);
    AtomicInteger n = new AtomicInteger();
    executor =
        new ThreadPoolExecutor(
            threadCount,
            threadCount,
            IDLE_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> new Thread(r, threadNamePrefix + "-" + n.incrementAndGet()));
    executor.allowCoreThreadTimeOut(true);
  }

  /**
   * Waits until a thread is free or the pool is shut down; true when one is. An interrupt does not
   * end the wait (it is kept for the caller): Quartz's scheduler thread would otherwise spin, or
   * put the trigger in error.
   */
  private boolean awaitFree(boolean take) {
    boolean interrupted = false;
    try {
      while (!shut) {
        try {
          if (free.tryAcquire(500, TimeUnit.MILLISECONDS)) {
            if (!take) {
              free.release();
            }
            return true;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      return false;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits for a free thread, as Quartz's own pool does; false once shut down. */
  @Override
  public boolean runInThread(Runnable job) {
    if (!awaitFree(true)) {
      return false;
    }
    try {
      executor.execute(
          () -> {
            try {
              job.run();
            } finally {
              free.release();
            }
          });
      return true;
    } catch (RejectedExecutionException e) {
      free.release();
      return false;
    }
  }

  /** Waits for a free thread (returns at once after shutdown); how many are free. */
  @Override
  public int blockForAvailableThreads() {
    awaitFree(false);
    return free.availablePermits();
  }

  @Override
  public void shutdown(boolean waitForJobsToComplete) {
    shut = true;
    executor.shutdown();
    if (waitForJobsToComplete) {
      try {
        executor.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public int getPoolSize() {
    return threadCount;
  }

  /** Threads alive now: none while no job ran in the last minute. */
  int liveThreads() {
    return executor.getPoolSize();
  }

  @Override
  public void setInstanceId(String schedInstId) {}

  @Override
  public void setInstanceName(String schedName) {}
}
