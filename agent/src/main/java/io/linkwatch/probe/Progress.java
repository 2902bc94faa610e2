package io.linkwatch.probe;

/** Where a probe reports what it is doing, e.g. {@code 0->1 64MiB}; the CLI shows it on stderr. */
@FunctionalInterface
public interface Progress {
  Progress NONE = step -> {};

  void step(String what);
}
