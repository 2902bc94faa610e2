package io.linkwatch.host;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * Where a buffer's pages are, and how that was found out. {@code method} is {@code "move_pages"}
 * (per page, sampled), {@code "numa_maps"} (per mapping) or {@code "unknown"}. Example: a thread on
 * node 4 of an Atlas 800T A3 first-touches 16 MiB and gets {@code Placement[method=numa_maps,
 * pagesByNode={5=4096}]}: {@code dominantNode()} is 5, {@code ratio(5)} is 1.0.
 *
 * <p>Ratios are shares of the pages found on some node; pages not yet touched are not counted.
 */
public record Placement(String method, Map<Integer, Long> pagesByNode) {
  public static final String MOVE_PAGES = "move_pages";
  public static final String NUMA_MAPS = "numa_maps";
  public static final String UNKNOWN = "unknown";

  public Placement {
    pagesByNode = Map.copyOf(pagesByNode);
  }

  public static Placement unknown() {
    return new Placement(UNKNOWN, Map.of());
  }

  public boolean known() {
    return !UNKNOWN.equals(method);
  }

  public long totalPages() {
    return pagesByNode.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The node holding the most pages (the lower id on a tie); empty when no page was found. */
  public Optional<Integer> dominantNode() {
    return pagesByNode.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .max(
            Comparator.comparingLong((Map.Entry<Integer, Long> e) -> e.getValue())
                .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
        .map(Map.Entry::getKey);
  }

  /** Share of the found pages that are on {@code node}, 0 to 1; 0 when no page was found. */
  public double ratio(int node) {
    long total = totalPages();
    return total == 0 ? 0.0 : (double) pagesByNode.getOrDefault(node, 0L) / total;
  }
}
