package io.linkwatch.cli;

import io.linkwatch.probe.DeviceIds;
import io.linkwatch.probe.DeviceMemorySettings;
import io.linkwatch.probe.result.DeviceMemoryBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch probe device-memory}: prints one row per device.
 *
 * <pre>
 * device  size  GB/s   ms
 * dev0    1GiB  620.4  1.731
 * </pre>
 */
@Command(
    name = "device-memory",
    mixinStandardHelpOptions = true,
    description = "Device-local copy bandwidth of each device.")
final class ProbeDeviceMemoryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProbeOptions options;
  @Mixin Repetitions repetitions;

  @Option(
      names = "--size",
      converter = SizeConverter.class,
      description = "Copy size, e.g. 256MiB. Default: 1GiB.")
  long size = DeviceMemorySettings.DEFAULTS.size();

  @Option(names = "--devices", split = ",", description = "Devices such as 0,1 (default: all).")
  List<String> devices = List.of();

  @Override
  public Integer call() {
    int warmup = repetitions.warmup(DeviceMemorySettings.DEFAULTS.warmup());
    int iterations = repetitions.iterations(DeviceMemorySettings.DEFAULTS.iterations());
    Set<Integer> ids = new LinkedHashSet<>();
    for (String d : devices) {
      int id;
      try {
        id = DeviceIds.parse(d);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--devices: " + e.getMessage());
      }
      if (!ids.add(id)) {
        throw new UsageException("--devices: device " + id + " is listed twice");
      }
    }
    DeviceMemorySettings settings =
        new DeviceMemorySettings(size, warmup, iterations, new ArrayList<>(ids));
    try (DeviceRuntime runtime = Runtimes.open(options.backend)) {
      Runtimes.checkSizesFit(runtime, List.of(size), "--size");
      return OneShot.run(runtime, options, spec, settings.newProbe(), this::printTable);
    }
  }

  private void printTable(ProbeRun run) {
    Table table = new Table("device", "size", "GB/s", "ms");
    for (TargetResult t : run.targets()) {
      List<DeviceMemoryBandwidth> m =
          t.measurements().stream().map(DeviceMemoryBandwidth.class::cast).toList();
      if (m.isEmpty()) {
        table.row(t.target(), ByteSize.format(size), OneShot.missing(t), "-");
      }
      for (DeviceMemoryBandwidth b : m) {
        table.row(
            t.target(),
            ByteSize.format(b.sizeBytes()),
            String.format(Locale.ROOT, "%.1f", b.bytesPerSecond() / 1e9),
            String.format(Locale.ROOT, "%.3f", b.sizeBytes() / b.bytesPerSecond() * 1e3));
      }
    }
    table.print(spec.commandLine().getOut());
  }
}
