package io.linkwatch.probe.p2p;

import io.linkwatch.probe.Distinct;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.util.ByteSize;
import java.util.List;
import java.util.stream.Stream;

/**
 * Settings of the p2p_bidirectional probe. {@code pairs} are unordered pairs written {@code 0<->1}
 * (kept lower id first); empty means every pair of devices.
 *
 * <p>Defaults: 256 MiB, as for one-way p2p (ascend-dmi's fixed size for most pairs, seed 002), so
 * the two figures compare; 3 warm-up pairs of copies, median of 10 (each pair moves twice the
 * bytes).
 */
public record P2pBidirectionalSettings(
    List<Long> sizes, int warmup, int iterations, List<DevicePair> pairs) implements ProbeSettings {
  public static final P2pBidirectionalSettings DEFAULTS =
      new P2pBidirectionalSettings(List.of(256L << 20), 3, 10, List.of());

  public static final List<SettingOption> OPTIONS =
      List.of(
          SettingOption.list(
              "sizes", "SIZE", "Size of each direction's copy, e.g. 64MiB,1GiB. Default: 256MiB."),
          SettingOption.WARMUP,
          SettingOption.ITERATIONS,
          SettingOption.list(
              "pairs",
              "PAIR",
              "Unordered pairs such as 0-1 or 0:1 (0<->1 needs quotes in a shell). Default: every pair."));

  public P2pBidirectionalSettings {
    sizes = List.copyOf(sizes);
    pairs = List.copyOf(pairs);
  }

  /** The one reader of these settings, for the config file and the CLI. */
  public static P2pBidirectionalSettings read(SettingsSource in) {
    P2pBidirectionalSettings d = DEFAULTS;
    return new P2pBidirectionalSettings(
        in.list("sizes", d.sizes(), Distinct.sizes(ByteSize::parse), false),
        in.integer("warmup", d.warmup(), 0, 10_000),
        in.integer("iterations", d.iterations(), 1, 100_000),
        in.list(
            "pairs",
            d.pairs(),
            Distinct.of(
                P2pBidirectionalSettings::parsePair, "pair", P2pBidirectionalSettings::name),
            true));
  }

  /** {@code 1<->0}, {@code 1-0} and {@code 1:0} read as the pair 0, 1. */
  public static DevicePair parsePair(String text) {
    return DevicePair.parse(text, true);
  }

  /** The target name, e.g. {@code 0<->1}. */
  public static String name(DevicePair pair) {
    return pair.src() + "<->" + pair.dst();
  }

  @Override
  public Probe newProbe() {
    return new P2pBidirectionalProbe(this);
  }

  @Override
  public void preflight(Preflight check) {
    check.devicesExist("pairs", pairs.stream().flatMap(p -> Stream.of(p.src(), p.dst())).toList());
    check.sizesFit("sizes", sizes, 2); // each device sends one buffer and receives another
    // Those four device buffers are host memory on the sim.
    check.hostMemoryFits("sizes", sizes, 0, 4);
  }
}
