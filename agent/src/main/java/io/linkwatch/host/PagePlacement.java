package io.linkwatch.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds which NUMA nodes hold a buffer's pages, e.g. {@code of(addr, 16 MiB)} gives {@code
 * Placement[method=move_pages, pagesByNode={0=4096}]} on a one-node host, or {@code
 * Placement[method=numa_maps, pagesByNode={5=4096}]} in a container on an Atlas 800T A3 after a
 * thread on node 4 touched it.
 *
 * <p>Asks per page first ({@link PageNodeQuery}, {@code move_pages}), sampling at most {@value
 * #MAX_SAMPLED_PAGES} pages spread over the buffer. Where that is refused (EPERM under the default
 * container seccomp profiles) it counts pages from {@code numa_maps}: the {@code N<node>=} counts
 * of every mapping the buffer overlaps. Those cover whole mappings, which is exact for a buffer
 * with a mapping of its own ({@link PageableBuffer}). If neither works the placement is {@code
 * unknown}, with a warning logged once per process: a probe keeps running without it.
 */
public final class PagePlacement {
  static final int MAX_SAMPLED_PAGES = 4096;

  private static final Logger LOG = LoggerFactory.getLogger(PagePlacement.class);
  private static final OneTimeWarning MOVE_PAGES_REFUSED = new OneTimeWarning();
  private static final OneTimeWarning NUMA_MAPS_UNREADABLE = new OneTimeWarning();

  private final HostPaths paths;
  private final PageNodeQuery query;
  private final long pageSize;

  public PagePlacement(HostPaths paths, PageNodeQuery query) {
    this(paths, query, NativeHost.pageSize());
  }

  PagePlacement(HostPaths paths, PageNodeQuery query, long pageSize) {
    this.paths = paths;
    this.query = query;
    this.pageSize = pageSize;
  }

  /** The real /proc and move_pages. */
  public static PagePlacement system() {
    return new PagePlacement(HostPaths.system(), MovePagesQuery.system());
  }

  /** The placement of the {@code bytes} at {@code address} in this process. */
  public Placement of(long address, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("buffer size must be positive, got " + bytes);
    }
    try {
      return new Placement(
          Placement.MOVE_PAGES, countByNode(query.nodesOf(samplePages(address, bytes))));
    } catch (HostException e) {
      MOVE_PAGES_REFUSED.warn(
          LOG,
          "Per-page placement unavailable, counting pages from numa_maps instead (logged once): {}",
          e.getMessage());
    }
    try {
      return fromNumaMaps(address, bytes);
    } catch (IOException | RuntimeException e) {
      NUMA_MAPS_UNREADABLE.warn(
          LOG,
          "Page placement unknown: no answer from {}/self/numa_maps ({}); host buffers report"
              + " method=unknown (logged once)",
          paths.procfs(),
          e.toString());
      return Placement.unknown();
    }
  }

  /**
   * Page-aligned addresses of up to {@value #MAX_SAMPLED_PAGES} pages of {@code [address, address +
   * bytes)}, evenly spread and always including the first and the last page.
   */
  long[] samplePages(long address, long bytes) {
    long first = address - Long.remainderUnsigned(address, pageSize);
    long pages = (address + bytes - first + pageSize - 1) / pageSize;
    int samples = (int) Math.min(pages, MAX_SAMPLED_PAGES);
    long[] out = new long[samples];
    for (int i = 0; i < samples; i++) {
      long index = samples == 1 ? 0 : Math.round((double) i * (pages - 1) / (samples - 1));
      out[i] = first + index * pageSize;
    }
    return out;
  }

  // Negative statuses are pages not present (never touched) or zero pages: not on any node.
  static Map<Integer, Long> countByNode(int[] statuses) {
    Map<Integer, Long> counts = new TreeMap<>();
    for (int status : statuses) {
      if (status >= 0) {
        counts.merge(status, 1L, Long::sum);
      }
    }
    return counts;
  }

  private Placement fromNumaMaps(long address, long bytes) throws IOException {
    Path self = paths.procfs().resolve("self");
    List<MapsRange> ranges =
        ProcMaps.parse(Files.readString(self.resolve("maps"))).stream()
            .filter(r -> r.overlaps(address, address + bytes))
            .toList();
    if (ranges.isEmpty()) {
      throw new IllegalStateException(
          "no mapping in " + self.resolve("maps") + " holds 0x" + Long.toHexString(address));
    }
    Map<Long, NumaMapsEntry> byStart = new TreeMap<>();
    for (NumaMapsEntry entry : NumaMaps.parse(Files.readString(self.resolve("numa_maps")))) {
      byStart.put(entry.start(), entry);
    }
    Map<Integer, Long> counts = new TreeMap<>();
    for (MapsRange range : ranges) {
      NumaMapsEntry entry = byStart.get(range.start());
      if (entry == null) {
        throw new IllegalStateException(
            "numa_maps has no line for the mapping at 0x" + Long.toHexString(range.start()));
      }
      // Huge pages are counted in huge pages; convert to base pages so mappings add up.
      long scale = Math.max(1, entry.kernelPageSizeKb() * 1024 / pageSize);
      entry.pagesByNode().forEach((node, pages) -> counts.merge(node, pages * scale, Long::sum));
    }
    return new Placement(Placement.NUMA_MAPS, counts);
  }
}
