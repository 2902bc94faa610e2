package io.linkwatch.probe.collective;

import io.linkwatch.probe.Distinct;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.util.ByteSize;
import java.util.List;

/**
 * Settings of the allreduce probe. An empty {@code devices} means every device. Sizes are message
 * sizes in bytes of fp16 data, so they must be even.
 *
 * <p>Defaults follow the field notes (seed 001): 1 KiB for latency and 256 MiB for bandwidth, 10
 * warm-up rounds; 50 timed rounds so that p99 means something.
 */
public record AllreduceSettings(List<Long> sizes, int warmup, int iterations, List<Integer> devices)
    implements ProbeSettings {
  public static final AllreduceSettings DEFAULTS =
      new AllreduceSettings(List.of(1L << 10, 256L << 20), 10, 50, List.of());

  public AllreduceSettings {
    sizes = List.copyOf(sizes);
    devices = List.copyOf(devices);
  }

  public static final List<SettingOption> OPTIONS =
      List.of(
          SettingOption.list(
              "sizes",
              "SIZE",
              "Message sizes (fp16, even), e.g. 1KiB,64MiB,256MiB,1GiB. Default: 1KiB,256MiB."),
          SettingOption.WARMUP,
          SettingOption.ITERATIONS,
          SettingOption.list("devices", "N", "Devices of the group, e.g. 0,1. Default: all."));

  /** The one reader of these settings, for the config file and the CLI. */
  public static AllreduceSettings read(SettingsSource in) {
    AllreduceSettings d = DEFAULTS;
    List<Integer> devices = in.list("devices", d.devices(), Distinct.devices(), true);
    if (devices.size() == 1) {
      in.problem("devices", "list at least two devices, or none for all devices");
      devices = d.devices();
    }
    return new AllreduceSettings(
        in.list("sizes", d.sizes(), Distinct.sizes(AllreduceSettings::fp16MessageSize), false),
        in.integer("warmup", d.warmup(), 0, 10_000),
        in.integer("iterations", d.iterations(), 1, 100_000),
        devices);
  }

  /** A message size of fp16 elements, so a whole number of 2-byte elements. */
  public static long fp16MessageSize(String text) {
    long size = ByteSize.parse(text);
    if (size % 2 != 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a multiple of 2 bytes (the collectives send fp16 elements)");
    }
    return size;
  }

  @Override
  public Probe newProbe() {
    return new AllreduceProbe(this);
  }

  @Override
  public void preflight(Preflight check) {
    check.devicesExist("devices", devices);
    check.sizesFit("sizes", sizes);
    // Every rank holds a send and a receive buffer of the size, all on this host on the sim.
    check.hostMemoryFits("sizes", sizes, 0, 2 * check.groupSize(devices));
  }
}
