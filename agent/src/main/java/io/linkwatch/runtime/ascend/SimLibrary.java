package io.linkwatch.runtime.ascend;

import com.sun.jna.Library;

/** The sim's own exports, present only in {@code liblinkwatch-sim.so}. */
public interface SimLibrary extends Library {
  long linkwatch_sim_live_allocations();

  String linkwatch_sim_version();
}
