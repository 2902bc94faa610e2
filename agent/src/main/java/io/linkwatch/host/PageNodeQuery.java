package io.linkwatch.host;

/**
 * Asks the kernel which node each page is on. The seam between {@link PagePlacement} and {@code
 * move_pages}, so tests can make the query fail as it does in a container ({@code EPERM}).
 */
@FunctionalInterface
public interface PageNodeQuery {
  /**
   * One status per page-aligned address: the node id ({@code >= 0}), or a negative errno for that
   * page ({@code -ENOENT}: not present, {@code -EFAULT}: zero page or not mapped).
   *
   * @throws HostException when the call as a whole fails; {@link HostException#errno()} says why
   */
  int[] nodesOf(long[] pageAddresses);
}
