package io.linkwatch.probe;

/**
 * A probe's own settings (sizes, iterations, targets); the schedule lives in the agent's config.
 * Settings travel to the worker process as JSON, tagged by {@code type}, the class's simple name;
 * the types are registered from the probes' descriptors ({@code ProbeKind.JSON}).
 */
public interface ProbeSettings {
  Probe newProbe();

  /**
   * Checks the settings against this machine before a one-shot run (devices that exist, sizes that
   * fit); problems go to {@code check} under their setting's key.
   */
  default void preflight(Preflight check) {}

  /**
   * The copy or message sizes the probe measures at, in bytes; none for a probe that copies none.
   */
  default java.util.List<Long> sizes() {
    return java.util.List.of();
  }
}
