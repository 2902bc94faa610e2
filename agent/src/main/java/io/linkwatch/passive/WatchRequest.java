package io.linkwatch.passive;

import java.util.List;

/**
 * One line the agent writes to its watcher process: read every device now but {@code skip}, the
 * devices an active probe is measuring. They are left out, not read and then thrown away: the
 * vendor warns that its own counter polling skews bandwidth tests. {@code npuPorts}: read each
 * NPU's own RoCE port through DCMI too (asked while the agent reads those ports).
 */
public record WatchRequest(List<Integer> skip, boolean npuPorts) {
  public WatchRequest {
    skip = List.copyOf(skip);
  }

  /** Links only, no NPU ports. */
  public WatchRequest(List<Integer> skip) {
    this(skip, false);
  }
}
