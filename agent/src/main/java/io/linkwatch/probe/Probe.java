package io.linkwatch.probe;

import io.linkwatch.probe.result.ProbeRun;

/**
 * One kind of measurement. A probe talks to the device only through its context's runtime and
 * returns a result: it never touches metrics or HTTP, and a failing device call becomes a failed
 * target in the result, not an exception.
 */
public interface Probe {
  ProbeRun run(ProbeContext context);
}
