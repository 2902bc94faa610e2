package io.linkwatch.probe.devicememory;

import io.linkwatch.probe.Distinct;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.util.ByteSize;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Settings of the device-memory probe: one device-local copy of {@code size} bytes per device. An
 * empty {@code devices} means every device the runtime sees.
 *
 * <p>Defaults follow the field notes (seed 000 measured HBM with 1 GiB copies): 1 GiB, 5 warm-up
 * copies, median of 20.
 */
public record DeviceMemorySettings(long size, int warmup, int iterations, List<Integer> devices)
    implements ProbeSettings {
  public static final DeviceMemorySettings DEFAULTS =
      new DeviceMemorySettings(1L << 30, 5, 20, List.of());

  public DeviceMemorySettings {
    if (size <= 0) {
      throw new IllegalArgumentException("copy size must be positive, not " + size);
    }
    if (warmup < 0) {
      throw new IllegalArgumentException("warmup must not be negative, not " + warmup);
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be at least 1, not " + iterations);
    }
    devices = List.copyOf(devices);
    Set<Integer> seen = new HashSet<>();
    for (int d : devices) {
      if (d < 0 || !seen.add(d)) {
        throw new IllegalArgumentException("devices must be distinct and not negative: " + devices);
      }
    }
  }

  public static final List<SettingOption> OPTIONS =
      List.of(
          SettingOption.single("size", "SIZE", "Copy size, e.g. 256MiB. Default: 1GiB."),
          SettingOption.WARMUP,
          SettingOption.ITERATIONS,
          SettingOption.list("devices", "N", "Devices such as 0,1. Default: all."));

  /** The one reader of these settings, for the config file and the CLI. */
  public static DeviceMemorySettings read(SettingsSource in) {
    DeviceMemorySettings d = DEFAULTS;
    return new DeviceMemorySettings(
        in.scalar("size", d.size(), ByteSize::parse),
        in.integer("warmup", d.warmup(), 0, 10_000),
        in.integer("iterations", d.iterations(), 1, 100_000),
        in.list("devices", d.devices(), Distinct.devices(), true));
  }

  @Override
  public List<Long> sizes() {
    return List.of(size);
  }

  @Override
  public Probe newProbe() {
    return new DeviceMemoryProbe(this);
  }

  @Override
  public void preflight(Preflight check) {
    check.devicesExist("devices", devices);
    check.sizesFit("size", List.of(size));
    // The copy's source and destination are both on the device: host memory on the sim.
    check.hostMemoryFits("size", List.of(size), 0, 2);
  }
}
