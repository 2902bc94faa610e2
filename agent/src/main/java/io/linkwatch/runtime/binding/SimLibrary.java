package io.linkwatch.runtime.binding;

import com.sun.jna.Library;

/**
 * The sim's own exports, present only in {@code liblinkwatch-sim.so}, whichever vendor's symbols it
 * is loaded for.
 */
public interface SimLibrary extends Library {
  /** Where the sim is loaded from: {@code LINKWATCH_SIM_LIBRARY} when set, else the jar's copy. */
  String PATH_ENV = "LINKWATCH_SIM_LIBRARY";

  long linkwatch_sim_live_allocations();

  String linkwatch_sim_version();

  /** The name JNA loads the sim by. */
  static String path() {
    String override = System.getenv(PATH_ENV);
    return override != null && !override.isBlank() ? override : "linkwatch-sim";
  }
}
