package io.linkwatch.cli;

import io.linkwatch.probe.DevicePair;
import io.linkwatch.probe.P2pSettings;
import io.linkwatch.probe.result.P2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch probe p2p}: prints a table like this, one column pair per direction.
 *
 * <pre>
 * size     0->1 GB/s  0->1 ms  1->0 GB/s  1->0 ms
 * 1MiB     4.9        0.214    4.9        0.214
 * </pre>
 */
@Command(
    name = "p2p",
    mixinStandardHelpOptions = true,
    description = "Copy bandwidth for every ordered device pair.")
final class ProbeP2pCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProbeOptions options;
  @Mixin Repetitions repetitions;

  @Option(
      names = "--sizes",
      split = ",",
      converter = SizeConverter.class,
      description = "Copy sizes, e.g. 1MiB,64MiB,1GiB. Default: 256MiB.")
  List<Long> sizes = P2pSettings.DEFAULTS.sizes();

  @Option(names = "--pairs", split = ",", description = "Pairs such as 0->1 (default: all).")
  List<String> pairs = List.of();

  @Override
  public Integer call() {
    int warmup = repetitions.warmup(P2pSettings.DEFAULTS.warmup());
    int iterations = repetitions.iterations(P2pSettings.DEFAULTS.iterations());
    List<DevicePair> parsed = new ArrayList<>();
    for (String p : pairs) {
      try {
        parsed.add(DevicePair.parse(p));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--pairs: " + e.getMessage());
      }
    }
    P2pSettings settings = new P2pSettings(sizes, warmup, iterations, parsed);
    try (DeviceRuntime runtime = Runtimes.open(options.backend)) {
      Runtimes.checkSizesFit(runtime, sizes, "--sizes");
      return OneShot.run(runtime, options, spec, settings.newProbe(), run -> printTable(run));
    }
  }

  private void printTable(ProbeRun run) {
    Map<Long, Map<String, P2pBandwidth>> bySize = new TreeMap<>();
    List<String> targets = new ArrayList<>();
    Map<String, String> missing = new TreeMap<>();
    for (TargetResult t : run.targets()) {
      targets.add(t.target());
      missing.put(t.target(), OneShot.missing(t));
      t.measurements().stream()
          .map(P2pBandwidth.class::cast)
          .forEach(
              m -> bySize.computeIfAbsent(m.sizeBytes(), k -> new TreeMap<>()).put(t.target(), m));
    }
    List<String> header = new ArrayList<>(List.of("size"));
    for (String t : targets) {
      header.add(t + " GB/s");
      header.add(t + " ms");
    }
    Table table = new Table(header.toArray(String[]::new));
    for (long size : sizes) {
      List<String> row = new ArrayList<>(List.of(ByteSize.format(size)));
      Map<String, P2pBandwidth> cells = bySize.getOrDefault(size, Map.of());
      for (String t : targets) {
        P2pBandwidth m = cells.get(t);
        row.add(
            m == null
                ? missing.get(t)
                : String.format(Locale.ROOT, "%.1f", m.bytesPerSecond() / 1e9));
        row.add(m == null ? "-" : String.format(Locale.ROOT, "%.3f", m.secondsPerCopy() * 1e3));
      }
      table.row(row.toArray(String[]::new));
    }
    table.print(spec.commandLine().getOut());
    run.targets().stream()
        .flatMap(t -> t.measurements().stream())
        .map(P2pBandwidth.class::cast)
        .map(m -> m.src() + "->" + m.dst() + ": " + m.link())
        .distinct()
        .forEach(line -> spec.commandLine().getOut().println("link " + line));
  }
}
