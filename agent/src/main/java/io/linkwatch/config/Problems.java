package io.linkwatch.config;

import java.util.ArrayList;
import java.util.List;

/** The errors found in one config file, each as {@code key.path: reason}, in file order. */
final class Problems {
  private final List<String> lines = new ArrayList<>();

  /** Adds a problem once: a mapping's keys may be listed more than once while it is read. */
  void add(String path, String reason) {
    String line = (path.isEmpty() ? "(top level)" : path) + ": " + reason;
    if (!lines.contains(line)) {
      lines.add(line);
    }
  }

  boolean isEmpty() {
    return lines.isEmpty();
  }

  List<String> lines() {
    return List.copyOf(lines);
  }
}
