package io.linkwatch.cli;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.LocalCopy;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.runtime.topology.TopologySource;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch topo}: the link matrix in the layout of {@code npu-smi info -t topo} (devices
 * named GPU0, GPU1 ... on NVIDIA, as {@code nvidia-smi topo -m} names them), then the inventory;
 * with {@code --measure} also the measured copy bandwidth of every ordered pair (the p2p probe)
 * with the device-local figure (the device-memory probe) on the diagonal, and each link's ratio to
 * its source device's local bandwidth.
 *
 * <pre>
 * Topology from aclrtGetDevicesTopo
 *
 *       NPU0  NPU1
 * NPU0  X     SIO
 * NPU1  SIO   X
 *
 * device  name            phy_id  memory  numa_node  cpu_affinity
 * 0       Ascend910_9382  2       64GiB   -          -
 * 1       Ascend910_9382  3       64GiB   -          -
 *
 * Copy bandwidth GB/s, 256MiB (diagonal: device-local)
 *       NPU0   NPU1
 * NPU0  620.4  177.6
 * NPU1  177.5  620.3
 *
 * Ratio to the source device's local bandwidth
 *       NPU0  NPU1
 * NPU0  X     0.29
 * NPU1  0.29  X
 * </pre>
 *
 * The topology is loaded once and given to every probe of the command, so the fallback command runs
 * at most once.
 */
@Command(
    name = "topo",
    mixinStandardHelpOptions = true,
    description = "Print the device link matrix and inventory.")
final class TopoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProbeOptions options;

  @Option(
      names = "--measure",
      description = "Also measure the copy bandwidth of every pair and of each device's memory.")
  boolean measure;

  @Option(
      names = "--size",
      paramLabel = "SIZE",
      description = "Copy size for --measure. Default: 256MiB.")
  String sizeText;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      description = "Untimed copies first. Default: 5, as for probe p2p.")
  String warmupText;

  @Option(
      names = "--iterations",
      paramLabel = "N",
      description = "Timed copies per figure (median). Default: 20, as for probe p2p.")
  String iterationsText;

  /** What {@code --json} prints. {@code measured} is null without {@code --measure}. */
  record Report(
      String source,
      int devices,
      List<LinkInfo> links,
      List<DeviceInfo> inventory,
      Measured measured,
      List<String> errors) {}

  /** The measured figures, in bytes per second. */
  record Measured(long sizeBytes, List<MeasuredLink> p2p, List<LocalCopy> deviceMemory) {}

  /** {@code ratioToLocal} is null when the source device's local figure is missing. */
  record MeasuredLink(int src, int dst, String link, double bytesPerSecond, Double ratioToLocal) {}

  @Override
  public Integer call() {
    // Read like the probes' own options, with the same checks and words.
    Map<String, List<String>> given = new HashMap<>();
    putIfGiven(given, "size", sizeText);
    putIfGiven(given, "warmup", warmupText);
    putIfGiven(given, "iterations", iterationsText);
    CliSettings settings = new CliSettings(given);
    // One size for the matrix and the local copies, the pair copy's own default unless given;
    // warm-up and iterations, when not given, are each probe's own default.
    long size =
        settings.scalar(
            "size", ProbeKind.P2P.descriptor().defaults().sizes().get(0), ByteSize::parse);
    settings.integer("warmup", 0, 0, 10_000);
    settings.integer("iterations", 0, 1, 100_000);
    settings.throwIfProblems();
    // The copy options shape the measurement only: without --measure they would be ignored.
    for (String[] o :
        new String[][] {
          {"--size", sizeText}, {"--warmup", warmupText}, {"--iterations", iterationsText}
        }) {
      if (o[1] != null && !measure) {
        throw new UsageException(
            o[0]
                + ": needs --measure (without it topo copies nothing); add --measure or drop "
                + o[0]);
      }
    }
    TopologySource source = Runtimes.topologySource(options.topologyCommand);
    List<ProbeRun> runs = new ArrayList<>();
    Report report;
    String deviceWord;
    try (DeviceRuntime runtime = Runtimes.open(options.backend)) {
      int count = runtime.deviceCount();
      deviceWord = runtime.backend().vendor().deviceWord();
      if (measure) {
        Preflight check = new Preflight(runtime, HostPaths.system(), settings::problem);
        check.sizesFit("size", List.of(size));
        // As probe p2p: a copy's source and destination are host memory on the sim.
        check.hostMemoryFits("size", List.of(size), 0, 2);
        settings.throwIfProblems();
      }
      Topology topology = source.load(runtime);
      TopologySource loaded = r -> topology;
      ProbeRun topo =
          run(
              ProbeKind.TOPOLOGY.descriptor().defaults().newProbe(),
              runtime,
              loaded,
              Progress.NONE);
      runs.add(topo);
      Measured measured = null;
      if (measure) {
        // Measuring every pair takes seconds to minutes: on a terminal, the one progress line the
        // probe command shows (device, pair, size and time so far), erased before the tables.
        ProgressLine progress = ProgressLine.start(spec.commandLine().getErr(), "linkwatch");
        try {
          ProbeRun local =
              run(
                  settingsOf(ProbeKind.DEVICE_MEMORY, "size", size, given).newProbe(),
                  runtime,
                  loaded,
                  ProgressLine.of(progress));
          runs.add(local);
          ProbeRun p2p =
              count < 2
                  ? null
                  : run(
                      settingsOf(ProbeKind.P2P, "sizes", size, given).newProbe(),
                      runtime,
                      loaded,
                      ProgressLine.of(progress));
          if (p2p != null) {
            runs.add(p2p);
          }
          measured = measured(size, local, p2p);
        } finally {
          ProgressLine.close(progress);
        }
      }
      report =
          new Report(
              topology.source(),
              count,
              measurements(topo, LinkInfo.class),
              measurements(topo, DeviceInfo.class),
              measured,
              errors(runs));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (options.json) {
      out.println(ProbeKind.USER_JSON.writePrettyVersioned(report, ProbeKind.JSON_SCHEMA_VERSION));
    } else {
      print(report, deviceWord, out);
    }
    out.flush();
    PrintWriter err = spec.commandLine().getErr();
    report.errors().forEach(e -> err.println("linkwatch: " + e));
    err.flush();
    return report.errors().isEmpty() ? 0 : Main.EXIT_FAILED;
  }

  /**
   * {@code kind}'s settings as its own reader makes them: the size under {@code sizeKey}, and the
   * warm-up and iterations if given.
   */
  private static ProbeSettings settingsOf(
      ProbeKind kind, String sizeKey, long size, Map<String, List<String>> given) {
    Map<String, List<String>> in = new HashMap<>(given);
    in.remove("size");
    in.put(sizeKey, List.of(ByteSize.format(size)));
    return ProbeSubcommand.read(kind, new CliSettings(in));
  }

  private static ProbeRun run(
      Probe probe, DeviceRuntime runtime, TopologySource topology, Progress progress) {
    return probe.run(new ProbeContext(runtime, topology, HostPaths.system(), progress));
  }

  private static <T> List<T> measurements(ProbeRun run, Class<T> type) {
    if (run == null) {
      return List.of();
    }
    return run.targets().stream()
        .flatMap(t -> t.measurements().stream())
        .filter(type::isInstance)
        .map(type::cast)
        .toList();
  }

  private static Measured measured(long size, ProbeRun localRun, ProbeRun p2pRun) {
    List<LocalCopy> local = measurements(localRun, LocalCopy.class);
    Map<Integer, Double> localBySrc = new HashMap<>();
    local.forEach(l -> localBySrc.put(l.device(), l.bytesPerSecond()));
    List<MeasuredLink> links = new ArrayList<>();
    for (Judged copy : measurements(p2pRun, Judged.class)) {
      Judged.Figure p = copy.judged();
      Double reference = localBySrc.get(p.device());
      links.add(
          new MeasuredLink(
              p.device(),
              p.peer(),
              p.over(),
              p.value(),
              reference == null ? null : p.value() / reference));
    }
    return new Measured(size, links, local);
  }

  private static List<String> errors(List<ProbeRun> runs) {
    List<String> errors = new ArrayList<>();
    for (ProbeRun run : runs) {
      if (!run.skippedBecause().isEmpty()) {
        errors.add(run.probe() + ": skipped: " + run.skippedBecause());
      }
      for (TargetResult t : run.targets()) {
        if (!t.error().isEmpty()) {
          errors.add(run.probe() + " " + t.target() + ": " + t.error());
        }
      }
    }
    return errors;
  }

  private static void print(Report report, String deviceWord, PrintWriter out) {
    int n = report.devices();
    out.println("Topology from " + report.source());
    out.println();
    Map<String, String> links = new HashMap<>();
    report.links().forEach(l -> links.put(l.src() + "->" + l.dst(), l.link()));
    Map<Integer, DeviceInfo> inventory = new HashMap<>();
    report.inventory().forEach(d -> inventory.put(d.device(), d));
    boolean affinity = report.inventory().stream().anyMatch(d -> !d.cpuAffinity().isEmpty());
    print(
        matrix(
            deviceWord,
            n,
            (s, d) -> s == d ? "X" : links.getOrDefault(s + "->" + d, "unknown"),
            affinity ? "CPU Affinity" : null,
            s -> inventory.containsKey(s) ? orDash(inventory.get(s).cpuAffinity()) : "-"),
        out);
    out.println();
    Table devices = new Table("device", "name", "phy_id", "memory", "numa_node", "cpu_affinity");
    for (int d = 0; d < n; d++) {
      DeviceInfo i = inventory.get(d);
      if (i == null) {
        devices.row(String.valueOf(d), "failed");
      } else {
        devices.row(
            String.valueOf(d),
            i.name(),
            orDash(i.physicalId()),
            ByteSize.human(i.memoryTotalBytes()),
            orDash(i.numaNode()),
            orDash(i.cpuAffinity()));
      }
    }
    devices.print(out);
    Measured m = report.measured();
    if (m == null) {
      return;
    }
    Map<String, MeasuredLink> p2p = new HashMap<>();
    m.p2p().forEach(l -> p2p.put(l.src() + "->" + l.dst(), l));
    Map<Integer, Double> local = new HashMap<>();
    m.deviceMemory().forEach(l -> local.put(l.device(), l.bytesPerSecond()));
    out.println();
    out.println(
        "Copy bandwidth GB/s, " + ByteSize.format(m.sizeBytes()) + " (diagonal: device-local)");
    print(
        matrix(
            deviceWord,
            n,
            (s, d) -> {
              Double bps = s == d ? local.get(s) : bps(p2p.get(s + "->" + d));
              return bps == null ? "failed" : Gbps.format(bps);
            },
            null,
            null),
        out);
    out.println();
    out.println("Ratio to the source device's local bandwidth");
    print(
        matrix(
            deviceWord,
            n,
            (s, d) -> {
              if (s == d) {
                return "X";
              }
              MeasuredLink l = p2p.get(s + "->" + d);
              return l == null || l.ratioToLocal() == null
                  ? "-"
                  : String.format(Locale.ROOT, "%.2f", l.ratioToLocal());
            },
            null,
            null),
        out);
  }

  private static Double bps(MeasuredLink l) {
    return l == null ? null : l.bytesPerSecond();
  }

  private interface Cell {
    String at(int src, int dst);
  }

  private interface Extra {
    String at(int src);
  }

  private static Table matrix(
      String deviceWord, int n, Cell cell, String extraHeader, Extra extra) {
    List<String> header = new ArrayList<>(List.of(""));
    for (int d = 0; d < n; d++) {
      header.add(deviceWord + d);
    }
    if (extraHeader != null) {
      header.add(extraHeader);
    }
    Table table = new Table(header.toArray(String[]::new));
    for (int s = 0; s < n; s++) {
      List<String> row = new ArrayList<>(List.of(deviceWord + s));
      for (int d = 0; d < n; d++) {
        row.add(cell.at(s, d));
      }
      if (extraHeader != null) {
        row.add(extra.at(s));
      }
      table.row(row.toArray(String[]::new));
    }
    return table;
  }

  private static void print(Table table, PrintWriter out) {
    table.print(out);
  }

  private static String orDash(String s) {
    return s.isEmpty() ? "-" : s;
  }

  private static String orDash(Integer n) {
    return n == null ? "-" : String.valueOf(n);
  }

  private static void putIfGiven(Map<String, List<String>> given, String key, String value) {
    if (value != null) {
      given.put(key, List.of(value));
    }
  }
}
