package io.linkwatch.passive;

import java.util.List;

/**
 * One line the agent writes to its watcher process: read every device now but {@code skip}, the
 * devices an active probe is measuring. They are left out, not read and then thrown away: the
 * vendor warns that its own counter polling skews bandwidth tests.
 */
public record WatchRequest(List<Integer> skip) {
  public WatchRequest {
    skip = List.copyOf(skip);
  }
}
