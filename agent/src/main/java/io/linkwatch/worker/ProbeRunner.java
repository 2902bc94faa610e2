package io.linkwatch.worker;

import io.linkwatch.probe.result.ProbeRun;
import java.time.Duration;
import java.util.List;

/** Runs one probe request to its result under a deadline; {@link WorkerProcess} in production. */
public interface ProbeRunner {
  /**
   * @param knownTargets the targets to report when the run dies without a result
   */
  ProbeRun run(WorkerRequest request, Duration deadline, List<String> knownTargets);

  /** Stops the run in progress, if any (on shutdown). */
  void stop();
}
