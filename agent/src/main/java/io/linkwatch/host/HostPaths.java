package io.linkwatch.host;

import java.nio.file.Path;

/**
 * Where the host's procfs and sysfs are mounted. Injected (as node_exporter's {@code
 * --path.procfs}) so tests read fixture trees of machines this one is not.
 */
public record HostPaths(Path procfs, Path sysfs) {
  public static HostPaths system() {
    return new HostPaths(Path.of("/proc"), Path.of("/sys"));
  }
}
