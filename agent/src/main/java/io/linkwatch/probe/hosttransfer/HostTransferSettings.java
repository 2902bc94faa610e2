package io.linkwatch.probe.hosttransfer;

import io.linkwatch.host.CpuList;
import io.linkwatch.host.HostException;
import io.linkwatch.host.NumaNode;
import io.linkwatch.host.NumaTopology;
import io.linkwatch.probe.Distinct;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.probe.result.HostCopy;
import io.linkwatch.util.ByteSize;
import java.util.List;
import java.util.Optional;

/**
 * Settings of the host_transfer probe. An empty {@code devices} means every device, an empty {@code
 * nodes} every NUMA node with CPUs; {@code memory} lists {@code pinned} and/or {@code pageable}.
 *
 * <p>Defaults: 64 MiB (the middle size of seed 004; its ranking of nodes was the same at 4 MiB, 64
 * MiB and 1 GiB), 3 warm-up copies, median of 10, both memory kinds.
 *
 * <p>The configuration checks only the form of {@code nodes}: whether a node exists and has CPUs is
 * checked when the probe runs, against the topology of the machine it runs on, because a file may
 * be validated ({@code check-config}) on another machine. A node that is missing there makes its
 * targets ({@code dev0/node9}) fail with the reason, so the mistake shows as {@code probe_success
 * 0} rather than silently measuring less.
 */
public record HostTransferSettings(
    List<Long> sizes,
    int warmup,
    int iterations,
    List<Integer> devices,
    List<Integer> nodes,
    List<String> memory)
    implements ProbeSettings {
  public static final String PINNED = HostCopy.PINNED;
  public static final String PAGEABLE = HostCopy.PAGEABLE;

  public static final HostTransferSettings DEFAULTS =
      new HostTransferSettings(
          List.of(64L << 20), 3, 10, List.of(), List.of(), List.of(PINNED, PAGEABLE));

  /** Duplicates are dropped (listing a node twice measures it once). */
  public HostTransferSettings {
    sizes = sizes.stream().distinct().toList();
    devices = devices.stream().distinct().toList();
    nodes = nodes.stream().distinct().toList();
    memory = memory.stream().map(HostTransferSettings::parseMemory).distinct().toList();
    if (sizes.isEmpty() || memory.isEmpty()) {
      throw new IllegalArgumentException("host_transfer needs at least one size and memory kind");
    }
  }

  public static final List<SettingOption> OPTIONS =
      List.of(
          SettingOption.list("sizes", "SIZE", "Copy sizes, e.g. 4MiB,64MiB,1GiB. Default: 64MiB."),
          SettingOption.WARMUP,
          SettingOption.ITERATIONS,
          SettingOption.list("devices", "N", "Devices to probe, e.g. 0 or 0,1. Default: all."),
          SettingOption.list(
              "nodes", "NODE", "NUMA nodes to run on, e.g. 0,1. Default: every node with CPUs."),
          SettingOption.list(
              "memory", "KIND", "pinned, pageable or both. Default: pinned,pageable."));

  /**
   * The one reader of these settings, for the config file and the CLI. Only the form of nodes is
   * checked here; whether they exist and have CPUs is checked where the probe runs (see above).
   */
  public static HostTransferSettings read(SettingsSource in) {
    HostTransferSettings d = DEFAULTS;
    return new HostTransferSettings(
        in.list("sizes", d.sizes(), Distinct.sizes(ByteSize::parse), false),
        in.integer("warmup", d.warmup(), 0, 10_000),
        in.integer("iterations", d.iterations(), 1, 100_000),
        in.list("devices", d.devices(), Distinct.devices(), true),
        in.list(
            "nodes", d.nodes(), Distinct.of(HostTransferSettings::parseNode, "NUMA node"), true),
        in.list(
            "memory",
            d.memory(),
            Distinct.of(HostTransferSettings::parseMemory, "memory kind"),
            false));
  }

  @Override
  public Probe newProbe() {
    return new HostTransferProbe(this);
  }

  /** On the machine that runs it, a node must exist and have CPUs. */
  @Override
  public void preflight(Preflight check) {
    check.devicesExist("devices", devices);
    check.sizesFit("sizes", sizes);
    // The pinned or pageable buffer is host memory on every backend; the device buffer it is
    // copied to or from is host memory too on the sim.
    check.hostMemoryFits("sizes", sizes, 1, 1);
    if (nodes.isEmpty() || !check.machine()) {
      return;
    }
    NumaTopology topology;
    try {
      topology = NumaTopology.read(check.host());
    } catch (HostException e) {
      check.problem("nodes", "cannot read the NUMA topology: " + e.getMessage());
      return;
    }
    for (int n : nodes) {
      nodeProblem(n, topology).ifPresent(reason -> check.problem("nodes", reason));
    }
  }

  /** A memory kind as written in the config or on the command line. */
  public static String parseMemory(String text) {
    String t = text == null ? "" : text.strip();
    if (!t.equals(PINNED) && !t.equals(PAGEABLE)) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a kind of host memory (use pinned or pageable)");
    }
    return t;
  }

  /** A NUMA node number: a whole number from 0. */
  public static int parseNode(String text) {
    String t = text == null ? "" : text.strip();
    if (!t.matches("\\d{1,9}")) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a NUMA node number (use 0, 1, ...)");
    }
    return Integer.parseInt(t);
  }

  /**
   * Why {@code node} cannot be probed on a host with this topology, e.g. {@code NUMA node 9 does
   * not exist (nodes: 0-7)} or {@code NUMA node 4 has no CPUs (nodes with CPUs: 0-3,5-7)}; empty
   * when it can.
   */
  public static Optional<String> nodeProblem(int node, NumaTopology topology) {
    Optional<NumaNode> found = topology.node(node);
    if (found.isEmpty()) {
      return Optional.of(
          "NUMA node "
              + node
              + " does not exist (nodes: "
              + CpuList.format(topology.nodes().stream().map(NumaNode::id).toList())
              + ")");
    }
    if (!found.get().hasCpus()) {
      return Optional.of(
          "NUMA node "
              + node
              + " has no CPUs, so no thread can run there (nodes with CPUs: "
              + CpuList.format(topology.nodesWithCpus().stream().map(NumaNode::id).toList())
              + ")");
    }
    return Optional.empty();
  }
}
