package io.linkwatch.probe.topology;

import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;

/**
 * Settings of the topology probe. It has none of its own: the topology command is agent-wide
 * ({@code topology.command}) because the p2p probe uses the same topology, and the schedule lives
 * in the probe's config like every probe's.
 */
public record TopologySettings() implements ProbeSettings {
  public static final TopologySettings DEFAULTS = new TopologySettings();

  @Override
  public Probe newProbe() {
    return new TopologyProbe();
  }
}
