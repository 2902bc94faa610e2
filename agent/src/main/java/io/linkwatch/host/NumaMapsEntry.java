package io.linkwatch.host;

import java.util.Map;
import java.util.Optional;

/**
 * One line of {@code /proc/<pid>/numa_maps}, e.g. for a 16 MiB buffer first-touched on node 5:
 *
 * <pre>
 * NumaMapsEntry[start=0x7f3a40000000, policy=default, file=Optional.empty, heap=false,
 *   stack=false, huge=false, anon=4096, dirty=4096, mapped=0, pagesByNode={5=4096},
 *   kernelPageSizeKb=4]
 * </pre>
 *
 * Counts are in pages of {@code kernelPageSizeKb} and cover only pages mapped now; the kernel
 * prints a count only when it is not zero, and prints no counts (nor the page size, which is then 0
 * here) for a mapping without pages. {@code policy} is the raw text; see {@link #memPolicy()}.
 */
public record NumaMapsEntry(
    long start,
    String policy,
    Optional<String> file,
    boolean heap,
    boolean stack,
    boolean huge,
    long anon,
    long dirty,
    long mapped,
    Map<Integer, Long> pagesByNode,
    long kernelPageSizeKb) {
  public NumaMapsEntry {
    pagesByNode = Map.copyOf(pagesByNode);
  }

  public MemPolicy memPolicy() {
    return MemPolicy.parse(policy);
  }

  /** Pages found on any node. */
  public long totalPages() {
    return pagesByNode.values().stream().mapToLong(Long::longValue).sum();
  }
}
