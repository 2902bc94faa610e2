package io.linkwatch.probe.collective;

import io.linkwatch.probe.Distinct;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import java.util.List;

/**
 * Settings of the allgather probe. An empty {@code devices} means every device. Sizes are the
 * gathered total in bytes of fp16 data, as nccl-tests count an allgather's size: each of the n
 * ranks sends {@code size / n}, so a size must split into n whole fp16 elements (checked when the
 * group is known).
 *
 * <p>Defaults as for allreduce, so the two compare (seed 001 asks for AllGather next to AllReduce):
 * 1 KiB for latency, 256 MiB for bandwidth, 10 warm-up rounds, 50 timed.
 */
public record AllgatherSettings(List<Long> sizes, int warmup, int iterations, List<Integer> devices)
    implements ProbeSettings {
  public static final AllgatherSettings DEFAULTS =
      new AllgatherSettings(List.of(1L << 10, 256L << 20), 10, 50, List.of());

  public static final List<SettingOption> OPTIONS =
      List.of(
          SettingOption.list(
              "sizes",
              "SIZE",
              "Gathered sizes (fp16; each rank sends size/n), e.g. 1KiB,64MiB,256MiB. Default:"
                  + " 1KiB,256MiB."),
          SettingOption.WARMUP,
          SettingOption.ITERATIONS,
          SettingOption.list("devices", "N", "Devices of the group, e.g. 0,1. Default: all."));

  public AllgatherSettings {
    sizes = List.copyOf(sizes);
    devices = List.copyOf(devices);
  }

  /** The one reader of these settings, for the config file and the CLI. */
  public static AllgatherSettings read(SettingsSource in) {
    AllgatherSettings d = DEFAULTS;
    List<Integer> devices = in.list("devices", d.devices(), Distinct.devices(), true);
    if (devices.size() == 1) {
      in.problem("devices", "list at least two devices, or none for all devices");
      devices = d.devices();
    }
    return new AllgatherSettings(
        in.list("sizes", d.sizes(), Distinct.sizes(AllreduceSettings::fp16MessageSize), false),
        in.integer("warmup", d.warmup(), 0, 10_000),
        in.integer("iterations", d.iterations(), 1, 100_000),
        devices);
  }

  @Override
  public Probe newProbe() {
    return new AllgatherProbe(this);
  }

  @Override
  public void preflight(Preflight check) {
    check.devicesExist("devices", devices);
    check.sizesFit("sizes", sizes);
    // Every rank holds a receive buffer of the size (and its share to send), all on this host on
    // the sim; the send share is left out, so the check stays a lower bound.
    check.hostMemoryFits("sizes", sizes, 0, check.groupSize(devices));
  }
}
