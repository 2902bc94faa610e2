package io.linkwatch.host;

import java.util.List;

/**
 * One NUMA node as sysfs shows it, e.g. node 4 of an Atlas 800T A3: {@code NumaNode[id=4,
 * cpus=[320..399], hasMemory=false, distances=[20, 20, 20, 20, 10, 15, 20, 20]]}. {@code distances}
 * has one entry per online node, in the order of {@link NumaTopology#nodes()} (10 is local).
 */
public record NumaNode(int id, List<Integer> cpus, boolean hasMemory, List<Integer> distances) {
  public NumaNode {
    cpus = List.copyOf(cpus);
    distances = List.copyOf(distances);
  }

  public boolean hasCpus() {
    return !cpus.isEmpty();
  }
}
