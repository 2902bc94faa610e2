package io.linkwatch.host;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The fixture trees under {@code src/test/resources/host/}. */
final class Fixtures {
  private Fixtures() {}

  /** Seed 004's machine: 8 nodes, node 4 CPU-only (see the README next to the tree). */
  static HostPaths atlas800tA3() {
    Path root = resource("/host/atlas-800t-a3");
    return new HostPaths(root.resolve("proc"), root.resolve("sys"));
  }

  static Path resource(String name) {
    try {
      return Path.of(Fixtures.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
