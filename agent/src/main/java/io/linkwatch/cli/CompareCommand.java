package io.linkwatch.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.linkwatch.compare.AscendDmiP2p;
import io.linkwatch.compare.AscendDmiTransfer;
import io.linkwatch.compare.Comparison;
import io.linkwatch.compare.HcclTestResult;
import io.linkwatch.compare.VendorTool;
import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.result.CollectiveBusBandwidth;
import io.linkwatch.probe.result.CollectiveLatency;
import io.linkwatch.probe.result.HostCopy;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import io.linkwatch.runtime.topology.NpuSmiTopology;
import io.linkwatch.runtime.topology.RuntimeTopologySource;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Table;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
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
 * {@code linkwatch compare}: the vendor's own tools beside linkwatch's one-shot probes at the same
 * sizes, so an operator can see on a first host that linkwatch's figures agree with the ones they
 * already trust. Tools that are not installed are one line each; linkwatch's figures are shown
 * anyway. The vendor tools number devices as the host does: rows carry linkwatch's numbers and are
 * matched through {@link DeviceRuntime#hostDeviceId} (they differ under ASCEND_RT_VISIBLE_DEVICES).
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Put linkwatch's figures beside the vendor tools' (Ascend hosts).",
      "Runs the vendor tools that are installed (ascend-dmi --bw -t p2p: the unidirectional and"
          + " bidirectional matrices; ascend-dmi --bw -t h2d and -t d2h; hccl_test's allreduce;"
          + " npu-smi info -t topo) and linkwatch's"
          + " own probes at the same sizes, and prints them side by side with the ratio and a"
          + " verdict per row (for link types: whether they are the same).",
      "Exit status: 0 when every figure that has a reference agrees within --tolerance (a missing"
          + " tool is not a failure), 1 when some figure differs or a probe failed, 2 on a usage"
          + " error."
    })
final class CompareCommand implements Callable<Integer> {
  @Mixin ProbeOptions options = new ProbeOptions();

  @Option(
      names = "--ascend-dmi",
      paramLabel = "PATH",
      defaultValue = "ascend-dmi",
      description =
          "The ascend-dmi to run (found on PATH unless a path). Default: ${DEFAULT-VALUE}.")
  String ascendDmi;

  @Option(
      names = "--npu-smi",
      paramLabel = "PATH",
      defaultValue = "npu-smi",
      description =
          "The npu-smi whose 'info -t topo' gives the link types (found on PATH unless a path)."
              + " Default: ${DEFAULT-VALUE}.")
  String npuSmi;

  @Option(
      names = "--hccl-test",
      paramLabel = "COMMAND",
      defaultValue = "mpirun -n {n} all_reduce_test -b {size} -e {size} -f 2 -d fp16 -o sum -p {n}",
      description =
          "hccl_test's allreduce, run once per size; words split on spaces, {n} is the number of"
              + " devices and {size} the message size in bytes. Default: ${DEFAULT-VALUE}.")
  String hcclTest;

  @Option(
      names = "--p2p-size",
      paramLabel = "SIZE",
      converter = SizeConverter.class,
      defaultValue = "256MiB",
      description =
          "Copy size for linkwatch's p2p probes; ascend-dmi's full matrix uses 256 MB (512 MB from"
              + " cards 0 and 8). Default: ${DEFAULT-VALUE}.")
  long p2pSize;

  @Option(
      names = "--host-size",
      paramLabel = "SIZE",
      converter = SizeConverter.class,
      defaultValue = "128MiB",
      description =
          "Copy size for ascend-dmi's h2d and d2h tests (-s) and linkwatch's pinned host_transfer;"
              + " the toolbox guide's own example uses 128 MB. Default: ${DEFAULT-VALUE}.")
  long hostSize;

  @Option(
      names = "--allreduce-sizes",
      paramLabel = "SIZE",
      split = ",",
      converter = SizeConverter.class,
      defaultValue = "1KiB,256MiB",
      description =
          "Allreduce sizes: below 1 MiB the latency is compared, from 1 MiB the algorithm"
              + " bandwidth. Default: ${DEFAULT-VALUE}.")
  List<Long> allreduceSizes;

  @Option(
      names = "--tolerance",
      paramLabel = "FRACTION",
      defaultValue = "0.15",
      description = "A ratio within 1 ± this agrees. Default: ${DEFAULT-VALUE}.")
  double tolerance;

  @Option(
      names = "--tool-timeout",
      paramLabel = "DURATION",
      defaultValue = "10m",
      converter = StatusCommand.DurationConverter.class,
      description = "How long one vendor tool may run. Default: ${DEFAULT-VALUE}.")
  Duration toolTimeout;

  @Spec CommandSpec spec;

  private final List<VendorTool.Run> tools = new ArrayList<>();
  private final List<Comparison> rows = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  /** One ordered pair's link type by aclrtGetDevicesTopo and by npu-smi ("-" when unknown). */
  record LinkComparison(String pair, String linkwatch, String reference) {
    String verdict() {
      if (linkwatch.equals("-")) {
        return "no linkwatch figure";
      }
      if (reference.equals("-")) {
        return "no reference";
      }
      return linkwatch.equals(reference) ? "agrees" : "differs";
    }
  }

  private final List<LinkComparison> links = new ArrayList<>();

  /** The terminal's progress line while tools and probes run; null without a terminal. */
  private ProgressLine progress;

  @Override
  public Integer call() {
    if (!(tolerance > 0 && tolerance < 1)) {
      throw new UsageException("--tolerance: must be between 0 and 1, not " + tolerance);
    }
    Backend backend = DeviceRuntimes.resolve(options.backend);
    if (backend.vendor() != Backend.Vendor.ASCEND) {
      throw new UsageException(
          "compare runs Ascend's tools (ascend-dmi, hccl_test, npu-smi) and does not apply to"
              + " backend "
              + backend.id()
              + "; on NVIDIA hosts run /usr/share/linkwatch/gpu-check.sh (scripts/gpu-check.sh in the"
              + " source tree)");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (DeviceRuntime runtime = Runtimes.open(backend)) {
      int devices = runtime.deviceCount();
      if (devices < 2) {
        err.println(
            "linkwatch: compare: p2p and allreduce need two devices; this host has " + devices);
        return Main.EXIT_USAGE;
      }
      progress = ProgressLine.start(err, "compare");
      try {
        compareTopology(runtime, devices);
        compareP2p(runtime);
        compareHostTransfer(runtime);
        compareAllreduce(runtime, devices);
      } finally {
        ProgressLine.close(progress);
      }
    }
    failures.forEach(f -> err.println("linkwatch: " + f));
    if (options.json) {
      printJson(out);
    } else {
      printTable(out);
    }
    boolean differs =
        rows.stream().anyMatch(r -> r.disagrees(tolerance))
            || links.stream().anyMatch(l -> l.verdict().equals("differs"))
            || !failures.isEmpty();
    return differs ? Main.EXIT_FAILED : 0;
  }

  /** Runs a vendor tool, named on the progress line while it runs. */
  private VendorTool.Run tool(String name, List<String> command, Duration timeout) {
    ProgressLine.of(progress).step(name);
    return VendorTool.run(name, command, timeout);
  }

  private void compareTopology(DeviceRuntime runtime, int devices) {
    VendorTool.Run smi = tool("npu-smi", List.of(npuSmi, "info", "-t", "topo"), toolTimeout);
    Topology reference = Topology.NONE;
    if (smi.ran()) {
      try {
        NpuSmiTopology parsed = NpuSmiTopology.parse(smi.output());
        if (parsed.unsupported()) {
          smi = new VendorTool.Run(smi.name(), null, "the device does not support querying topo");
        } else {
          reference = parsed.toTopology();
        }
      } catch (IllegalArgumentException e) {
        smi = new VendorTool.Run(smi.name(), null, "cannot parse its output: " + e.getMessage());
      }
    }
    tools.add(smi);
    Topology own = new RuntimeTopologySource().load(runtime);
    for (int s = 0; s < devices; s++) {
      for (int d = 0; d < devices; d++) {
        if (s != d) {
          links.add(
              new LinkComparison(
                  s + "->" + d,
                  label(own, s, d),
                  label(reference, runtime.hostDeviceId(s), runtime.hostDeviceId(d))));
        }
      }
    }
  }

  private static String label(Topology topology, int src, int dst) {
    String label = topology.link(src, dst).label();
    return label.equals("unknown") ? "-" : label;
  }

  private void compareP2p(DeviceRuntime runtime) {
    VendorTool.Run dmi = tool("ascend-dmi", AscendDmiP2p.command(ascendDmi), toolTimeout);
    AscendDmiP2p reference = AscendDmiP2p.NONE;
    if (dmi.ran()) {
      try {
        reference = AscendDmiP2p.parse(dmi.output());
        if (reference.cards()) {
          // card ids are not device ids: comparing them would pair the wrong links
          dmi = new VendorTool.Run(dmi.name(), null, "printed card matrices, not device ones");
          reference = AscendDmiP2p.NONE;
        } else if (reference.unidirectional().isEmpty()) {
          dmi = new VendorTool.Run(dmi.name(), null, "printed no p2p matrix");
        }
      } catch (IllegalArgumentException e) {
        dmi = new VendorTool.Run(dmi.name(), null, e.getMessage());
      }
    }
    tools.add(dmi);
    String size = ByteSize.format(p2pSize);
    for (TargetResult t : measure(runtime, ProbeKind.P2P, Map.of("sizes", List.of(size)))) {
      for (Judged.Figure b : pairs(t, false)) {
        rows.add(
            new Comparison(
                ProbeKind.P2P.id(),
                b.device() + "->" + b.peer(),
                b.sizeBytes(),
                "B/s",
                b.value(),
                reference
                    .unidirectional()
                    .getOrDefault(
                        AscendDmiP2p.key(
                            runtime.hostDeviceId(b.device()), runtime.hostDeviceId(b.peer())),
                        Double.NaN),
                "ascend-dmi"));
      }
    }
    for (TargetResult t :
        measure(runtime, ProbeKind.P2P_BIDIRECTIONAL, Map.of("sizes", List.of(size)))) {
      for (Judged.Figure b : pairs(t, true)) {
        rows.add(
            new Comparison(
                ProbeKind.P2P.id() + " bidirectional",
                b.device() + "<->" + b.peer(),
                b.sizeBytes(),
                "B/s",
                b.value(),
                reference
                    .bidirectional()
                    .getOrDefault(
                        AscendDmiP2p.key(
                            runtime.hostDeviceId(b.device()), runtime.hostDeviceId(b.peer())),
                        Double.NaN),
                "ascend-dmi"));
      }
    }
  }

  /**
   * ascend-dmi's h2d and d2h bandwidth per device beside linkwatch's pinned host_transfer at the
   * same size. ascend-dmi does not say where its host buffer lies, so linkwatch's figure is its
   * best over the NUMA nodes it ran from (on an A3 the nodes agree at large sizes, seed 004).
   */
  private void compareHostTransfer(DeviceRuntime runtime) {
    Map<String, Double> reference = new java.util.HashMap<>();
    if (VendorTool.installed(ascendDmi)) { // else the p2p line has said so once
      for (String direction : List.of(HostCopy.H2D, HostCopy.D2H)) {
        VendorTool.Run run =
            tool(
                "ascend-dmi -t " + direction,
                List.of(ascendDmi, "--bw", "-t", direction, "-s", String.valueOf(hostSize), "-q"),
                toolTimeout);
        if (run.ran()) {
          try {
            AscendDmiTransfer parsed = AscendDmiTransfer.parse(run.output());
            if (parsed.bandwidth().isEmpty()) {
              run = new VendorTool.Run(run.name(), null, "printed no bandwidth table");
            }
            reference.putAll(parsed.bandwidth());
          } catch (IllegalArgumentException e) {
            run = new VendorTool.Run(run.name(), null, e.getMessage());
          }
        }
        tools.add(run);
      }
    }
    Map<String, HostCopy> best = new java.util.LinkedHashMap<>();
    Map<String, List<String>> given =
        Map.of("sizes", List.of(ByteSize.format(hostSize)), "memory", List.of(HostCopy.PINNED));
    for (TargetResult t : measure(runtime, ProbeKind.HOST_TRANSFER, given)) {
      for (HostCopy b : of(t, HostCopy.class)) {
        // keyed as ascend-dmi numbers the device, so the key finds the reference
        best.merge(
            AscendDmiTransfer.key(b.direction(), runtime.hostDeviceId(b.device()), b.sizeBytes()),
            b,
            (x, y) -> x.bytesPerSecond() >= y.bytesPerSecond() ? x : y);
      }
    }
    best.forEach(
        (key, b) ->
            rows.add(
                new Comparison(
                    b.direction(),
                    "dev" + b.device(),
                    b.sizeBytes(),
                    "B/s",
                    b.bytesPerSecond(),
                    reference.getOrDefault(key, Double.NaN),
                    "ascend-dmi")));
  }

  private void compareAllreduce(DeviceRuntime runtime, int devices) {
    List<HcclTestResult> reference = new ArrayList<>();
    VendorTool.Run last = null;
    for (long size : allreduceSizes) {
      List<String> command = new ArrayList<>();
      for (String word : hcclTest.strip().split("\\s+")) {
        command.add(
            word.replace("{n}", String.valueOf(devices)).replace("{size}", String.valueOf(size)));
      }
      last = tool("hccl_test", command, toolTimeout);
      if (!last.ran()) {
        break; // the same tool: one line for it is enough
      }
      try {
        List<HcclTestResult> parsed = HcclTestResult.parse(last.output());
        if (parsed.isEmpty()) {
          last = new VendorTool.Run(last.name(), null, "printed no results table");
          break;
        }
        reference.addAll(parsed);
      } catch (IllegalArgumentException e) {
        last = new VendorTool.Run(last.name(), null, e.getMessage());
        break;
      }
    }
    tools.add(last);
    List<String> sizes = allreduceSizes.stream().map(ByteSize::format).toList();
    for (TargetResult t : measure(runtime, ProbeKind.ALLREDUCE, Map.of("sizes", sizes))) {
      for (CollectiveLatency l : of(t, CollectiveLatency.class)) {
        if (l.sizeBytes() < (1L << 20)) {
          rows.add(
              new Comparison(
                  "allreduce latency",
                  l.devices(),
                  l.sizeBytes(),
                  "s",
                  l.p50Seconds(),
                  find(reference, l.sizeBytes())
                      .map(HcclTestResult::averageSeconds)
                      .orElse(Double.NaN),
                  "hccl_test"));
        }
      }
      for (CollectiveBusBandwidth b : of(t, CollectiveBusBandwidth.class)) {
        if (b.sizeBytes() >= (1L << 20)) {
          rows.add(
              new Comparison(
                  "allreduce algbw",
                  b.devices(),
                  b.sizeBytes(),
                  "B/s",
                  b.algBytesPerSecond(),
                  find(reference, b.sizeBytes())
                      .map(HcclTestResult::algBytesPerSecond)
                      .orElse(Double.NaN),
                  "hccl_test"));
        }
      }
    }
  }

  private static java.util.Optional<HcclTestResult> find(List<HcclTestResult> rows, long size) {
    return rows.stream()
        .filter(r -> r.sizeBytes() == size && r.check().equals("success"))
        .findFirst();
  }

  /** One run of {@code kind} in this process with {@code given} settings; its targets. */
  private List<TargetResult> measure(
      DeviceRuntime runtime, ProbeKind kind, Map<String, List<String>> given) {
    CliSettings settings = new CliSettings(given);
    ProbeSettings probeSettings = ProbeSubcommand.read(kind, settings);
    ProbeSubcommand.preflight(probeSettings, settings, runtime, HostPaths.system());
    ProbeRun run =
        probeSettings
            .newProbe()
            .run(
                new ProbeContext(
                    runtime,
                    Runtimes.topologySource(options.topologyCommand),
                    HostPaths.system(),
                    ProgressLine.of(progress),
                    OneShot.gate(runtime, options),
                    Set.of()));
    if (!run.skippedBecause().isEmpty()) {
      failures.add(kind.id() + ": skipped: " + run.skippedBecause());
    }
    for (TargetResult t : run.targets()) {
      if (t.error() != null && !t.error().isEmpty()) {
        failures.add(kind.id() + " " + t.target() + ": " + t.error());
      }
    }
    return run.targets();
  }

  /** A run's device pair figures, one way or both ways at once, as their types judge them. */
  private static List<Judged.Figure> pairs(TargetResult t, boolean bothWays) {
    return of(t, Judged.class).stream()
        .map(Judged::judged)
        .filter(f -> f.pair() && f.bothWays() == bothWays)
        .toList();
  }

  private static <T extends Measurement> List<T> of(TargetResult t, Class<T> type) {
    return t.measurements().stream().filter(type::isInstance).map(type::cast).toList();
  }

  private void printTable(PrintWriter out) {
    for (VendorTool.Run t : tools) {
      out.println(
          t.ran()
              ? t.name() + ": ran"
              : t.name() + ": " + t.problem() + "; its rows have no reference");
    }
    Table table =
        new Table("test", "target", "size", "linkwatch", "reference", "tool", "ratio", "verdict");
    for (Comparison r : rows) {
      table.row(
          r.test(),
          r.target(),
          ByteSize.format(r.sizeBytes()),
          Comparison.format(r.linkwatch(), r.unit()),
          Comparison.format(r.reference(), r.unit()),
          r.tool(),
          Double.isNaN(r.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", r.ratio()),
          r.verdict(tolerance));
    }
    table.print(out);
    Table types = new Table("link", "linkwatch", "npu-smi", "verdict");
    links.forEach(l -> types.row(l.pair(), l.linkwatch(), l.reference(), l.verdict()));
    types.print(out);
  }

  private void printJson(PrintWriter out) {
    JsonObject root = new JsonObject();
    root.addProperty("tolerance", tolerance);
    JsonArray toolNodes = new JsonArray();
    for (VendorTool.Run t : tools) {
      JsonObject n = new JsonObject();
      n.addProperty("name", t.name());
      n.addProperty("ran", t.ran());
      if (!t.ran()) {
        n.addProperty("problem", t.problem());
      }
      toolNodes.add(n);
    }
    root.add("tools", toolNodes);
    JsonArray rowNodes = new JsonArray();
    for (Comparison r : rows) {
      JsonObject n = new JsonObject();
      n.addProperty("test", r.test());
      n.addProperty("target", r.target());
      n.addProperty("size_bytes", r.sizeBytes());
      n.addProperty("unit", r.unit());
      n.addProperty("tool", r.tool());
      n.addProperty("verdict", r.verdict(tolerance));
      putFigure(n, "linkwatch", r.linkwatch());
      putFigure(n, "reference", r.reference());
      putFigure(n, "ratio", r.ratio());
      rowNodes.add(n);
    }
    root.add("rows", rowNodes);
    JsonArray linkNodes = new JsonArray();
    for (LinkComparison l : links) {
      JsonObject n = new JsonObject();
      n.addProperty("pair", l.pair());
      n.addProperty("linkwatch", l.linkwatch());
      n.addProperty("npu_smi", l.reference());
      n.addProperty("verdict", l.verdict());
      linkNodes.add(n);
    }
    root.add("links", linkNodes);
    JsonArray failureNodes = new JsonArray();
    failures.forEach(failureNodes::add);
    root.add("failures", failureNodes);
    out.println(ProbeKind.JSON.writePretty(root));
  }

  /** A figure, or null where there is none (NaN). */
  private static void putFigure(JsonObject n, String name, double value) {
    if (Double.isNaN(value)) {
      n.add(name, JsonNull.INSTANCE);
    } else {
      n.addProperty(name, value);
    }
  }
}
