package io.linkwatch.schedule;

import io.linkwatch.config.ProbeConfig;
import java.time.Instant;

/**
 * What the scheduler asks of whoever runs the probes ({@link ProbeExecutor} in the agent): one
 * scheduled run of a probe, with whatever retries fit before its next firing.
 */
public interface ProbeRuns {
  /**
   * @param nextRun the probe's next scheduled firing, null when there is none
   */
  void runScheduled(ProbeConfig probe, Instant nextRun) throws InterruptedException;
}
