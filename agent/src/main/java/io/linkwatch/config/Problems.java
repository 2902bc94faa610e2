package io.linkwatch.config;

import java.util.ArrayList;
import java.util.List;

/** The errors found in one config file, each as {@code key.path: reason}, in file order. */
final class Problems {
  private final List<String> lines = new ArrayList<>();

  void add(String path, String reason) {
    lines.add((path.isEmpty() ? "(top level)" : path) + ": " + reason);
  }

  boolean isEmpty() {
    return lines.isEmpty();
  }

  List<String> lines() {
    return List.copyOf(lines);
  }
}
