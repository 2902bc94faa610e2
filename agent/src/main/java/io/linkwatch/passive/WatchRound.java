package io.linkwatch.passive;

import io.linkwatch.runtime.telemetry.DeviceLinks;
import java.util.List;

/**
 * The watcher's answer to one {@link WatchRequest}: one line of JSON on its stdout.
 *
 * @param devices the runtime's device count, as the watcher found it at start
 * @param readings one per device asked for
 */
public record WatchRound(int devices, List<DeviceLinks> readings) {
  public WatchRound {
    readings = List.copyOf(readings);
  }
}
