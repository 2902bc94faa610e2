package io.linkwatch.probe.topology;

import io.linkwatch.host.HostPaths;
import io.linkwatch.host.PciFunction;
import io.linkwatch.probe.DeviceIds;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.util.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The link type of every ordered device pair and each device's inventory. No device work beyond
 * queries: the link matrix comes from the context's topology source ({@code aclrtGetDevicesTopo},
 * else the topology command), the inventory from {@code aclrtGetSocName}, {@code aclrtGetMemInfo}
 * and {@code aclrtGetPhyDevIdByLogicDevId}.
 *
 * <p>Targets: {@code links} holds one {@link LinkInfo} per ordered pair (only with two or more
 * devices; it fails, leaving no link series, when no topology source answered, rather than
 * publishing {@code link_type="unknown"} as if it were a finding), and {@code dev<N>} holds that
 * device's {@link DeviceInfo}, so one device that cannot be queried does not hide the others.
 * Produces e.g. {@code LinkInfo[src=0, dst=1, link=SIO]} and {@code DeviceInfo[device=0,
 * name=Ascend910_9382, physicalId=2, numaNode=null, cpuAffinity=, memoryTotalBytes=68719476736]}.
 *
 * <p>{@code numaNode} and, where the topology source gave none, {@code cpuAffinity} come from the
 * device's PCI function in sysfs ({@code numa_node}, {@code local_cpulist}) when the runtime gives
 * its address (CUDA does); AscendCL does not, so on Ascend {@code numaNode} stays null.
 */
public final class TopologyProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "topology";

  /** The target that carries the link matrix. */
  public static final String LINKS_TARGET = "links";

  private static final Logger log = LoggerFactory.getLogger(TopologyProbe.class);

  @Override
  public ProbeRun run(ProbeContext context) {
    String probe = ID;
    long started = System.nanoTime();
    DeviceRuntime runtime = context.runtime();
    int count;
    try {
      count = runtime.deviceCount();
    } catch (DeviceException e) {
      return ProbeRun.failedBeforeTargets(
          probe, TargetResult.error(probe, e, Durations.secondsSince(started)));
    }
    if (count < 1) {
      return ProbeRun.notApplicable(probe, "no devices found");
    }
    context.progress().step("topology");
    Topology topology = context.topology().load(runtime);
    log.info(
        "Topology of {} device(s) from {}{}",
        count,
        topology.source(),
        count >= 2 && topology.links().isEmpty() ? " (no source answered)" : "");
    List<TargetResult> results = new ArrayList<>();
    if (count >= 2) {
      results.add(links(topology, count, started, runtime));
    }
    String name = socName(runtime);
    for (int device = 0; device < count; device++) {
      context.progress().step(DeviceIds.target(device));
      results.add(inventory(runtime, topology, context.hostPaths(), name, device));
    }
    return ProbeRun.of(probe, results);
  }

  private static TargetResult links(
      Topology topology, int count, long started, DeviceRuntime runtime) {
    if (topology.links().isEmpty()) {
      String asked =
          runtime.linkTypeSource()
              + (runtime.backend().vendor() == Backend.Vendor.ASCEND
                  ? ", then the topology command"
                  : "");
      return TargetResult.failure(
          LINKS_TARGET,
          Outcome.ERROR,
          "no topology source answered (" + asked + ")",
          Durations.secondsSince(started));
    }
    List<Measurement> links = new ArrayList<>();
    for (int src = 0; src < count; src++) {
      for (int dst = 0; dst < count; dst++) {
        if (src != dst) {
          links.add(new LinkInfo(src, dst, topology.link(src, dst).label()));
        }
      }
    }
    return TargetResult.success(LINKS_TARGET, Durations.secondsSince(started), links);
  }

  private static TargetResult inventory(
      DeviceRuntime runtime, Topology topology, HostPaths paths, String name, int device) {
    long started = System.nanoTime();
    String target = DeviceIds.target(device);
    try {
      long total = runtime.memoryInfo(device).totalBytes();
      Integer physical = runtime.physicalId(device).orElse(null);
      Optional<PciFunction> pci = runtime.pciBusId(device).map(id -> new PciFunction(paths, id));
      Integer numaNode = pci.flatMap(PciFunction::numaNode).orElse(null);
      String affinity =
          topology.affinity(device).or(() -> pci.flatMap(PciFunction::localCpus)).orElse("");
      return TargetResult.success(
          target,
          Durations.secondsSince(started),
          List.of(
              new DeviceInfo(
                  device,
                  name,
                  physical,
                  numaNode,
                  affinity,
                  total,
                  runtime.uuid(device).orElse(""))));
    } catch (DeviceException e) {
      return TargetResult.error(target, e, Durations.secondsSince(started));
    }
  }

  /**
   * {@code aclrtGetSocName} names device 0's SoC; one server holds one kind of device, so it stands
   * for all. A runtime that cannot tell gives {@code unknown}.
   */
  private static String socName(DeviceRuntime runtime) {
    try {
      String name = runtime.socName();
      return name == null || name.isBlank() ? "unknown" : name;
    } catch (DeviceException e) {
      return "unknown";
    }
  }
}
