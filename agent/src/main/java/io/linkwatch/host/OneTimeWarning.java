package io.linkwatch.host;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * A warning that is logged the first time only. A probe that runs every minute on a host where
 * numa_maps is hidden would otherwise repeat the same line forever; the result ({@code
 * method="unknown"}) already says it on every run.
 */
final class OneTimeWarning {
  private final AtomicBoolean logged = new AtomicBoolean();

  /** Logs the message if this warning has not been logged yet; true if it logged now. */
  boolean warn(Logger log, String format, Object... args) {
    if (logged.compareAndSet(false, true)) {
      log.warn(format, args);
      return true;
    }
    return false;
  }
}
