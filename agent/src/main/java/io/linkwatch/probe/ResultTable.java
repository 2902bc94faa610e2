package io.linkwatch.probe;

import io.linkwatch.probe.result.ProbeRun;
import java.io.PrintWriter;

/** How {@code linkwatch probe NAME} prints a run, in the layout of the field notes. */
@FunctionalInterface
public interface ResultTable<S extends ProbeSettings> {
  void print(ProbeRun run, S settings, PrintWriter out);
}
