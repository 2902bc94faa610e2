package io.linkwatch.cli;

import io.linkwatch.probe.AllreduceSettings;
import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch probe allreduce}: prints a table like the field notes' (seed 001), one row per
 * message size; with two devices busbw equals algbw.
 *
 * <pre>
 * size    p50       p99       algbw GB/s  busbw GB/s
 * 1KiB    272.9us   275.4us   0.0         0.0
 * 1GiB    10.22ms   10.27ms   105.1       105.1
 * devices 0,1: fp16 sum, busbw = algbw*2(n-1)/n
 * </pre>
 */
@Command(
    name = "allreduce",
    mixinStandardHelpOptions = true,
    description = "HCCL allreduce latency (p50, p99) and bus bandwidth over a group of devices.")
final class ProbeAllreduceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProbeOptions options;
  @Mixin Repetitions repetitions;

  @Option(
      names = "--sizes",
      split = ",",
      converter = SizeConverter.class,
      description =
          "Message sizes (fp16, even), e.g. 1KiB,64MiB,256MiB,1GiB. Default: 1KiB,256MiB.")
  List<Long> sizes = AllreduceSettings.DEFAULTS.sizes();

  @Option(
      names = "--devices",
      split = ",",
      description = "Devices of the group, e.g. 0,1 (default: all).")
  List<Integer> devices = List.of();

  @Override
  public Integer call() {
    int warmup = repetitions.warmup(AllreduceSettings.DEFAULTS.warmup());
    int iterations = repetitions.iterations(AllreduceSettings.DEFAULTS.iterations());
    for (long size : sizes) {
      if (size % 2 != 0) {
        throw new UsageException(
            "--sizes: " + size + " is not a multiple of 2 bytes (allreduce sends fp16 elements)");
      }
    }
    Set<Integer> seen = new HashSet<>();
    for (int d : devices) {
      if (d < 0 || !seen.add(d)) {
        throw new UsageException(
            "--devices: " + (d < 0 ? d + " is not a device id" : "device " + d + " listed twice"));
      }
    }
    if (devices.size() == 1) {
      throw new UsageException("--devices: list at least two devices, or leave it out for all");
    }
    AllreduceSettings settings = new AllreduceSettings(sizes, warmup, iterations, devices);
    try (DeviceRuntime runtime = Runtimes.open(options.backend)) {
      Runtimes.checkSizesFit(runtime, sizes, "--sizes");
      return OneShot.run(runtime, options, spec, settings.newProbe(), this::printTable);
    }
  }

  private void printTable(ProbeRun run) {
    PrintWriter out = spec.commandLine().getOut();
    for (TargetResult t : run.targets()) {
      Map<Long, AllreduceLatency> latency = new HashMap<>();
      Map<Long, AllreduceBusBandwidth> bandwidth = new HashMap<>();
      for (Measurement m : t.measurements()) {
        if (m instanceof AllreduceLatency l) {
          latency.put(l.sizeBytes(), l);
        } else if (m instanceof AllreduceBusBandwidth b) {
          bandwidth.put(b.sizeBytes(), b);
        }
      }
      Table table = new Table("size", "p50", "p99", "algbw GB/s", "busbw GB/s");
      for (long size : sizes) {
        AllreduceLatency l = latency.get(size);
        AllreduceBusBandwidth b = bandwidth.get(size);
        table.row(
            ByteSize.format(size),
            l == null ? OneShot.missing(t) : time(l.p50Seconds()),
            l == null ? "-" : time(l.p99Seconds()),
            b == null ? "-" : String.format(Locale.ROOT, "%.1f", b.algBytesPerSecond() / 1e9),
            b == null ? "-" : String.format(Locale.ROOT, "%.1f", b.busBytesPerSecond() / 1e9));
      }
      table.print(out);
      out.println("devices " + t.target() + ": fp16 sum, busbw = algbw*2(n-1)/n");
    }
  }

  /** Microseconds below a millisecond (latency), milliseconds above, as the field notes print. */
  static String time(double seconds) {
    return seconds < 1e-3
        ? String.format(Locale.ROOT, "%.1fus", seconds * 1e6)
        : String.format(Locale.ROOT, "%.2fms", seconds * 1e3);
  }
}
