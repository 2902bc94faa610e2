package io.linkwatch.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The host's NUMA nodes from sysfs ({@code devices/system/node}). On an Atlas 800T A3 this is 8
 * nodes of 80 CPUs, distances 10/15/20 (four pairs), where a node may have CPUs but no memory:
 *
 * <pre>
 * node 0  cpus 0-79     memory yes  distances 10 15 20 20 20 20 20 20
 * node 4  cpus 320-399  memory no   distances 20 20 20 20 10 15 20 20
 * </pre>
 *
 * A thread pinned to node 4 then gets its pages from another node (node 5 in seed 004), which is
 * why the probe measures placement ({@link PagePlacement}) instead of trusting the CPU's node.
 *
 * <p>{@link #read} does the I/O; the {@code parse...} methods are pure.
 */
public final class NumaTopology {
  private final List<NumaNode> nodes;

  public NumaTopology(List<NumaNode> nodes) {
    this.nodes = nodes.stream().sorted(Comparator.comparingInt(NumaNode::id)).toList();
  }

  /**
   * Reads the online nodes under {@code <sysfs>/devices/system/node}. Whether a node has memory
   * comes from the {@code has_memory} list, or, on kernels without it, from {@code nodeN/meminfo}'s
   * {@code MemTotal}.
   *
   * @throws HostException when the directory has no {@code online} list (a kernel without NUMA) or
   *     a file cannot be read
   */
  public static NumaTopology read(HostPaths paths) {
    Path dir = paths.sysfs().resolve("devices/system/node");
    List<Integer> online =
        CpuList.parse(
            readOptional(dir.resolve("online"))
                .orElseThrow(
                    () ->
                        new HostException(
                            "no NUMA node list at "
                                + dir.resolve("online")
                                + " (kernel without NUMA, or sysfs not mounted there)")));
    Optional<Set<Integer>> hasMemory =
        readOptional(dir.resolve("has_memory")).map(t -> new TreeSet<>(CpuList.parse(t)));
    List<NumaNode> nodes = new ArrayList<>();
    for (int id : online) {
      Path node = dir.resolve("node" + id);
      List<Integer> cpus =
          readOptional(node.resolve("cpulist")).map(CpuList::parse).orElse(List.of());
      List<Integer> distances =
          readOptional(node.resolve("distance"))
              .map(NumaTopology::parseDistances)
              .orElse(List.of());
      boolean memory =
          hasMemory
              .map(s -> s.contains(id))
              .orElseGet(() -> memoryFromMeminfo(node.resolve("meminfo")));
      nodes.add(new NumaNode(id, cpus, memory, distances));
    }
    return new NumaTopology(nodes);
  }

  // Without a meminfo we cannot tell; assume memory rather than call a node CPU-only on no
  // evidence.
  private static boolean memoryFromMeminfo(Path meminfo) {
    return readOptional(meminfo).map(t -> parseMemTotalKb(t).orElse(1) > 0).orElse(true);
  }

  private static Optional<String> readOptional(Path file) {
    try {
      return Optional.of(Files.readString(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new HostException("cannot read " + file + ": " + e, e);
    }
  }

  /** {@code nodeN/distance}: {@code "10 15 20 20"} gives {@code [10, 15, 20, 20]}. */
  public static List<Integer> parseDistances(String text) {
    String trimmed = text.strip();
    if (trimmed.isEmpty()) {
      return List.of();
    }
    List<Integer> out = new ArrayList<>();
    for (String token : trimmed.split("\\s+")) {
      out.add(Integer.parseInt(token));
    }
    return List.copyOf(out);
  }

  /** {@code MemTotal} in kB from a node's meminfo ({@code "Node 4 MemTotal: 0 kB"}). */
  public static OptionalLong parseMemTotalKb(String meminfo) {
    return HostMemory.parseKb(meminfo, "MemTotal");
  }

  /** All online nodes, by id. */
  public List<NumaNode> nodes() {
    return nodes;
  }

  /** The nodes a thread can be pinned to. */
  public List<NumaNode> nodesWithCpus() {
    return nodes.stream().filter(NumaNode::hasCpus).toList();
  }

  public List<NumaNode> nodesWithMemory() {
    return nodes.stream().filter(NumaNode::hasMemory).toList();
  }

  public Optional<NumaNode> node(int id) {
    return nodes.stream().filter(n -> n.id() == id).findFirst();
  }

  /** The node whose {@code cpulist} holds the CPU. */
  public Optional<NumaNode> nodeOfCpu(int cpu) {
    return nodes.stream().filter(n -> n.cpus().contains(cpu)).findFirst();
  }

  /** The sysfs distance from one node to another; empty when either is unknown. */
  public OptionalInt distance(int from, int to) {
    int index = indexOf(to);
    Optional<NumaNode> node = node(from);
    if (index < 0 || node.isEmpty() || node.get().distances().size() <= index) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(node.get().distances().get(index));
  }

  /**
   * The node the kernel's fallback order would try first for a thread on {@code id}: the node
   * itself if it has memory, else the closest node with memory (lowest id on a tie). Only an
   * expectation: the measured placement can differ when that node is full.
   */
  public Optional<NumaNode> nearestNodeWithMemory(int id) {
    return nodesWithMemory().stream()
        .filter(n -> distance(id, n.id()).isPresent())
        .min(
            Comparator.comparingInt((NumaNode n) -> distance(id, n.id()).getAsInt())
                .thenComparingInt(NumaNode::id));
  }

  private int indexOf(int id) {
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).id() == id) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return "NumaTopology" + nodes;
  }
}
