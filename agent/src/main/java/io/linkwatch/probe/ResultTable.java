package io.linkwatch.probe;

import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.io.PrintWriter;

/** How {@code linkwatch probe NAME} prints a run, in the layout of the field notes. */
@FunctionalInterface
public interface ResultTable<S extends ProbeSettings> {
  void print(ProbeRun run, S settings, PrintWriter out);

  /** What a table prints in place of a target's figure when it has none: busy or failed. */
  static String missing(TargetResult t) {
    return t.outcome().deferred() ? "busy" : "failed";
  }
}
