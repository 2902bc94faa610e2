package io.linkwatch.cli;

import java.util.Map;
import java.util.Properties;

/**
 * System properties that keep libraries from loading what the agent never uses, set before any of
 * them is loaded. Each is a default: an operator's own {@code -D} setting wins. Each class loaded
 * is held for the process's life (in the class-data archive or in metaspace), so these are resident
 * memory saved on every host: the four Vert.x settings together keep out about 190 classes, 0.7 MiB
 * of class archive (docs/performance.md).
 */
final class LeanDefaults {
  /**
   * What each leaves out:
   *
   * <ul>
   *   <li>Netty's buffer allocator reports to Java Flight Recorder when it can: about eighty JFR
   *       classes in a process that never records.
   *   <li>Vert.x's own asynchronous DNS resolver (Netty's DNS codec and resolver, about eighty
   *       classes): the agent resolves no names but its listen address, which the JDK's resolver
   *       does as well.
   *   <li>Vert.x's WebSocket support: the agent serves plain HTTP requests only.
   *   <li>Vert.x's class-path file resolver and its file cache: the agent serves no files, so
   *       neither is needed, and no {@code .vertx} cache directory is made.
   * </ul>
   */
  static final Map<String, String> PROPERTIES =
      Map.of(
          "io.netty.jfr.enabled", "false",
          "vertx.disableDnsResolver", "true",
          "vertx.disableWebsockets", "true",
          "vertx.disableFileCPResolving", "true",
          "vertx.disableFileCaching", "true");

  private LeanDefaults() {}

  /** Sets each property that {@code properties} does not have yet. */
  static void apply(Properties properties) {
    PROPERTIES.forEach(properties::putIfAbsent);
  }
}
