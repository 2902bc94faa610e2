package io.linkwatch.probe.hosttransfer;

import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.HostException;
import io.linkwatch.host.MovePagesQuery;
import io.linkwatch.host.NumaNode;
import io.linkwatch.host.NumaTopology;
import io.linkwatch.host.PageNodeQuery;
import io.linkwatch.host.PagePlacement;
import io.linkwatch.host.PageableBuffer;
import io.linkwatch.host.Placement;
import io.linkwatch.host.ThreadAffinity;
import io.linkwatch.probe.CopyTimer;
import io.linkwatch.probe.DataCheck;
import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.PinnedMemoryCalls;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Durations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Host-device copy bandwidth per device and NUMA node, the method of seed 004: for each target
 * ({@code dev0/node3}) the probe's thread is pinned to the node's CPUs, the host buffer is
 * first-touched from there, where its pages really landed is looked up (move_pages, else
 * numa_maps), and H2D and D2H are timed with device events (warm-up, median). The placement is
 * reported, never assumed: on the seed's machine a thread on node 4 gets its pages from node 5.
 *
 * <p>Produces per target, memory kind and size e.g.
 *
 * <pre>
 * dev0 h2d pageable cpu4 mem5 64MiB 18.6GB/s (move_pages, mmap)
 * dev0 d2h pageable cpu4 mem5 64MiB 22.5GB/s (move_pages, mmap)
 * dev0 pageable cpu4 mem5 pages 1.00
 * </pre>
 *
 * <p><b>Pinned memory.</b> Where the runtime can register host memory ({@code aclrtHostRegisterV2},
 * {@code cuMemHostRegister_v2}) and, on Ascend, the kernel is newer than 5.10 (on older kernels
 * registering pageable memory "causes an exception"), pinned buffers are first-touched {@link
 * PageableBuffer}s registered with it: their placement is chosen by the probe's thread like the
 * pageable ones and can be verified. Otherwise they come from the runtime's pinned allocation
 * ({@code aclrtMallocHost}, {@code cuMemHostAlloc}), whose pages the driver places; their placement
 * is still measured and reported, it is just not chosen. Each measurement's {@code allocation}
 * names the call used.
 *
 * <p><b>Ratios.</b> {@code host_buffer_pages_ratio} has no size label, so its series come from the
 * largest size of the run. With an unknown placement there is no ratio series and {@code mem_node}
 * is {@code unknown}; the host layer logs why once per process.
 *
 * <p>Failures: a failing device or host call fails that target only; every buffer, registration,
 * stream and event is released and the thread's CPU mask restored on every path.
 */
public final class HostTransferProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "host_transfer";

  static final String UNKNOWN_NODE = "unknown";
  static final String MMAP = "mmap";

  private static final Logger LOG = LoggerFactory.getLogger(HostTransferProbe.class);
  private static final Pattern KERNEL = Pattern.compile("(\\d+)\\.(\\d+).*");

  /** Runs work on the calling thread restricted to some CPUs, restoring its mask afterwards. */
  @FunctionalInterface
  public interface AffinityRunner {
    <T> T runPinned(List<Integer> cpus, Supplier<T> work);
  }

  private final HostTransferSettings settings;
  private final PageNodeQuery pageNodes;
  private final AffinityRunner affinity;
  private final String kernelRelease;
  private final boolean kernelAllowsHostRegister;

  public HostTransferProbe(HostTransferSettings settings) {
    this(
        settings,
        MovePagesQuery.system(),
        ThreadAffinity::runPinned,
        System.getProperty("os.version", ""));
  }

  /**
   * @param pageNodes the per-page node query handed to {@link PagePlacement}
   * @param affinity how the thread is pinned to a node's CPUs
   * @param kernelRelease e.g. {@code 6.6.0-28.0.0.34.oe2403.aarch64}; decides whether {@code
   *     aclrtHostRegisterV2} may be used
   */
  HostTransferProbe(
      HostTransferSettings settings,
      PageNodeQuery pageNodes,
      AffinityRunner affinity,
      String kernelRelease) {
    this.settings = settings;
    this.pageNodes = pageNodes;
    this.affinity = affinity;
    this.kernelRelease = kernelRelease;
    this.kernelAllowsHostRegister = kernelAllowsHostRegister(kernelRelease);
  }

  /** True for kernels newer than 5.10; an unreadable release counts as too old (the safe side). */
  static boolean kernelAllowsHostRegister(String release) {
    Matcher m = KERNEL.matcher(release == null ? "" : release.strip());
    if (!m.matches()) {
      return false;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    return major > 5 || (major == 5 && minor > 10);
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    String probe = ID;
    long started = System.nanoTime();
    NumaTopology topology;
    try {
      topology = NumaTopology.read(context.hostPaths());
    } catch (HostException e) {
      return ProbeRun.of(
          probe,
          List.of(
              TargetResult.failure(
                  probe,
                  Outcome.ERROR,
                  "cannot read the NUMA topology: " + e.getMessage(),
                  Durations.secondsSince(started))));
    }
    List<Integer> nodes =
        settings.nodes().isEmpty()
            ? topology.nodesWithCpus().stream().map(NumaNode::id).toList()
            : settings.nodes();
    if (nodes.isEmpty()) {
      return ProbeRun.notApplicable(probe, "no NUMA node with CPUs under " + context.hostPaths());
    }
    DeviceRuntime runtime = context.runtime();
    int deviceCount = runtime.deviceCount();
    List<Integer> devices =
        settings.devices().isEmpty()
            ? IntStream.range(0, deviceCount).boxed().toList()
            : settings.devices();
    if (devices.isEmpty()) {
      return ProbeRun.notApplicable(probe, "no device found");
    }
    Run run = new Run(context, new PagePlacement(context.hostPaths(), pageNodes));
    List<TargetResult> results = new ArrayList<>();
    for (int device : devices) {
      for (int node : nodes) {
        if (context.wants(target(device, node))) {
          results.add(
              context
                  .gate()
                  .guard(
                      target(device, node),
                      List.of(device),
                      () -> measureTarget(run, topology, device, deviceCount, node)));
        }
      }
    }
    return ProbeRun.of(probe, results);
  }

  /** The target label of a device and a CPU node, e.g. {@code dev0/node3}. */
  public static String target(int device, int node) {
    return "dev" + device + "/node" + node;
  }

  private TargetResult measureTarget(
      Run run, NumaTopology topology, int device, int deviceCount, int nodeId) {
    long started = System.nanoTime();
    String target = target(device, nodeId);
    if (device >= deviceCount) {
      return TargetResult.failure(
          target,
          Outcome.ERROR,
          "no device " + device + " (found " + deviceCount + ")",
          Durations.secondsSince(started));
    }
    Optional<String> problem = HostTransferSettings.nodeProblem(nodeId, topology);
    if (problem.isPresent()) {
      return TargetResult.failure(
          target, Outcome.ERROR, problem.get(), Durations.secondsSince(started));
    }
    NumaNode node = topology.node(nodeId).orElseThrow();
    try {
      List<Measurement> measured =
          affinity.runPinned(node.cpus(), () -> measureOnNode(run, target, device, nodeId));
      return TargetResult.success(target, Durations.secondsSince(started), measured);
    } catch (DeviceException | DataMismatchException | HostException e) {
      return TargetResult.error(target, e, Durations.secondsSince(started));
    }
  }

  // Runs on the pinned thread: every host buffer is first-touched from the node's CPUs.
  private List<Measurement> measureOnNode(Run run, String target, int device, int node) {
    List<Measurement> out = new ArrayList<>();
    long largest = Collections.max(settings.sizes());
    for (String memory : settings.memory()) {
      for (long size : settings.sizes()) {
        run.context.progress().step(target + " " + memory + " " + ByteSize.format(size));
        out.addAll(measureBuffer(run, target, device, node, memory, size, size == largest));
      }
    }
    return out;
  }

  private List<Measurement> measureBuffer(
      Run run, String target, int device, int node, String memory, long size, boolean withPages) {
    DeviceRuntime runtime = run.context.runtime();
    long seed = 1_000_003L * device + 1_009L * node + size;
    try (HostSide host = openHost(run, memory, size)) {
      DataCheck.Pattern toDevice = DataCheck.fill(host.buffer, seed);
      Placement placement = run.placement.of(host.buffer.address(), size);
      CopyTimer timer = new CopyTimer(runtime, settings.warmup(), settings.iterations());
      DataCheck check = new DataCheck(runtime);
      String what = target + " " + memory + " " + ByteSize.format(size);
      double h2d;
      double d2h;
      try (DeviceBuffer dev = runtime.allocate(device, size)) {
        h2d = timer.medianSeconds(dev, host.buffer, size, device);
        requireEqual(check.verify(dev, size, toDevice), what + " h2d");
        DataCheck.Pattern toHost = check.fill(dev, ~seed);
        d2h = timer.medianSeconds(host.buffer, dev, size, device);
        requireEqual(check.verify(host.buffer, size, toHost), what + " d2h");
      }
      return measurements(
          device,
          memory,
          node,
          size,
          placement,
          size / h2d,
          size / d2h,
          host.allocation,
          withPages);
    }
  }

  private static void requireEqual(String mismatch, String what) {
    if (!mismatch.isEmpty()) {
      throw new DataMismatchException("host_transfer " + what + ": " + mismatch);
    }
  }

  /**
   * Turns one buffer's figures and placement into measurements: {@code mem_node} is the node with
   * the most pages, and every node holding pages gets a ratio, but only for a placement that was
   * measured; an unknown one gives {@code mem_node="unknown"} and no ratios.
   */
  static List<Measurement> measurements(
      int device,
      String memory,
      int cpuNode,
      long size,
      Placement placement,
      double h2dBytesPerSecond,
      double d2hBytesPerSecond,
      String allocation,
      boolean withPages) {
    Optional<Integer> dominant =
        placement.known() ? placement.dominantNode() : Optional.<Integer>empty();
    String memNode = dominant.map(String::valueOf).orElse(UNKNOWN_NODE);
    String method = dominant.isPresent() ? placement.method() : Placement.UNKNOWN;
    List<Measurement> out = new ArrayList<>();
    out.add(
        new HostTransferBandwidth(
            device,
            HostTransferBandwidth.H2D,
            memory,
            cpuNode,
            memNode,
            size,
            h2dBytesPerSecond,
            method,
            allocation));
    out.add(
        new HostTransferBandwidth(
            device,
            HostTransferBandwidth.D2H,
            memory,
            cpuNode,
            memNode,
            size,
            d2hBytesPerSecond,
            method,
            allocation));
    if (withPages && dominant.isPresent()) {
      for (Map.Entry<Integer, Long> e : new TreeMap<>(placement.pagesByNode()).entrySet()) {
        if (e.getValue() > 0) {
          out.add(
              new HostBufferPages(
                  device, memory, cpuNode, e.getKey(), placement.ratio(e.getKey())));
        }
      }
    }
    return out;
  }

  private HostSide openHost(Run run, String memory, long size) {
    if (memory.equals(HostTransferSettings.PAGEABLE)) {
      PageableBuffer buffer = PageableBuffer.map(size);
      try {
        buffer.firstTouch();
      } catch (RuntimeException e) {
        buffer.close();
        throw e;
      }
      return new HostSide(buffer, MMAP, null);
    }
    DeviceRuntime runtime = run.context.runtime();
    PinnedMemoryCalls calls = runtime.pinnedMemoryCalls();
    if (run.tryHostRegister) {
      PageableBuffer buffer = PageableBuffer.map(size);
      try {
        buffer.firstTouch();
        Optional<AutoCloseable> registration = runtime.registerPinned(buffer);
        if (registration.isPresent()) {
          return new HostSide(buffer, calls.register(), registration.get());
        }
      } catch (RuntimeException e) {
        buffer.close();
        throw e;
      }
      buffer.close();
      run.tryHostRegister = false;
      LOG.debug(
          "{} not available; pinned buffers come from {}", calls.register(), calls.allocate());
    }
    return new HostSide(runtime.allocatePinned(size), calls.allocate(), null);
  }

  /** State of one run: the context, the placement lookup, and whether registration works. */
  private final class Run {
    final ProbeContext context;
    final PagePlacement placement;
    boolean tryHostRegister;

    Run(ProbeContext context, PagePlacement placement) {
      this.context = context;
      this.placement = placement;
      PinnedMemoryCalls calls = context.runtime().pinnedMemoryCalls();
      tryHostRegister = kernelAllowsHostRegister || !calls.registerNeedsKernelAbove510();
      if (!tryHostRegister) {
        LOG.debug(
            "kernel {} is not newer than 5.10: pinned buffers come from {}",
            kernelRelease,
            calls.allocate());
      }
    }
  }

  /** A host buffer and, for registered memory, its registration; closing releases both. */
  private static final class HostSide implements AutoCloseable {
    final HostBuffer buffer;
    final String allocation;
    private final AutoCloseable registration;

    HostSide(HostBuffer buffer, String allocation, AutoCloseable registration) {
      this.buffer = buffer;
      this.allocation = allocation;
      this.registration = registration;
    }

    @Override
    public void close() {
      try {
        if (registration != null) {
          registration.close();
        }
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("unregistering a pinned host buffer failed", e);
      } finally {
        buffer.close();
      }
    }
  }
}
