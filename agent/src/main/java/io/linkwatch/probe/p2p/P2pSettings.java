package io.linkwatch.probe.p2p;

import io.linkwatch.probe.Distinct;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.util.ByteSize;
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

  public static final List<SettingOption> OPTIONS =
      List.of(
          SettingOption.list("sizes", "SIZE", "Copy sizes, e.g. 1MiB,64MiB,1GiB. Default: 256MiB."),
          SettingOption.WARMUP,
          SettingOption.ITERATIONS,
          SettingOption.list(
              "pairs",
              "PAIR",
              "Ordered pairs such as 0-1 or 0:1, from 0 to 1 (0->1 needs quotes in a shell). Default:"
                  + " every ordered pair."));

  /** The one reader of these settings, for the config file and the CLI. */
  public static P2pSettings read(SettingsSource in) {
    P2pSettings d = DEFAULTS;
    return new P2pSettings(
        in.list("sizes", d.sizes(), Distinct.sizes(ByteSize::parse), false),
        in.integer("warmup", d.warmup(), 0, 10_000),
        in.integer("iterations", d.iterations(), 1, 100_000),
        in.list("pairs", d.pairs(), Distinct.of(DevicePair::parse, "pair"), true));
  }

  @Override
  public Probe newProbe() {
    return new P2pProbe(this);
  }

  @Override
  public void preflight(Preflight check) {
    check.devicesExist(
        "pairs",
        pairs.stream().flatMap(p -> java.util.stream.Stream.of(p.src(), p.dst())).toList());
    check.sizesFit("sizes", sizes);
    // A copy holds a source and a destination buffer, both device memory, which the sim backs
    // with host memory; on a real backend the host holds neither.
    check.hostMemoryFits("sizes", sizes, 0, 2);
  }
}
