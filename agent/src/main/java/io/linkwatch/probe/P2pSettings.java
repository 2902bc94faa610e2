package io.linkwatch.probe;

import java.util.List;

/**
 * Settings of the p2p probe. An empty {@code pairs} means every ordered pair of devices.
 *
 * <p>Defaults follow the field notes: 256 MiB, 5 warm-up copies, median of 20.
 */
public record P2pSettings(List<Long> sizes, int warmup, int iterations, List<DevicePair> pairs)
    implements ProbeSettings {
  public static final P2pSettings DEFAULTS = new P2pSettings(List.of(256L << 20), 5, 20, List.of());

  public P2pSettings {
    sizes = List.copyOf(sizes);
    pairs = List.copyOf(pairs);
  }

  @Override
  public Probe newProbe() {
    return new P2pProbe(this);
  }
}
