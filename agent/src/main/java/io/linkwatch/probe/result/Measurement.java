package io.linkwatch.probe.result;

/**
 * One figure a probe measured or found, in base units. Probes produce these; the metrics layer
 * turns each kind into series. They cross the worker boundary as JSON, tagged by {@code type} (the
 * simple class name); each probe's descriptor registers its types with their metric writers ({@code
 * ProbeKind}).
 */
public interface Measurement {

  /** The figure for a log line, e.g. {@code 0->1 256MiB 155.1GB/s}. */
  String summary();
}
