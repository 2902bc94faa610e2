package io.linkwatch.probe.result;

/**
 * A measurement the expected figures judge: each result type says itself which device's product
 * names the row, what the figure was measured over and how a finding names it, so the verdict names
 * no probe. A p2p figure, for example, is judged as {@code (device 0, peer 1, over "SIO", 256 MiB,
 * 1.55e11, "SIO 256MiB", one way)}.
 */
public interface Judged extends Measurement {
  /**
   * The figure as the verdict reads it.
   *
   * @param device the device whose product's row applies (a pair's source, a group's first rank)
   * @param over what it was measured over, the expected row's {@code link}: {@code SIO}, {@code
   *     pinned h2d}, {@code 2 ranks}
   * @param value in base units (bytes per second, seconds); NaN when the measurement failed
   * @param detail what a finding adds to the probe and target, e.g. {@code SIO 256MiB}
   * @param peer the other device of a device pair's copy, -1 for a figure of one device or a group
   * @param bothWays whether a pair's figure is of both directions at once
   */
  record Figure(
      int device,
      int peer,
      String over,
      long sizeBytes,
      double value,
      String detail,
      boolean bothWays) {
    /** Whether it is a device pair's copy (the verdict counts p2p figures). */
    public boolean pair() {
      return peer >= 0;
    }
  }

  /** This measurement as a figure to judge. */
  Figure judged();

  /**
   * A judged figure that is a latency (worse when higher, an expected row gives a ceiling); every
   * other judged figure is a bandwidth. A type, not a field, so the registry knows it of a probe
   * before any figure exists (to read the expected rows of the config).
   */
  interface Latency extends Judged {}

  /** {@code 256MiB} for whole MiB, else bytes: {@code 1000B}. */
  static String mib(long sizeBytes) {
    return sizeBytes >= 0 && sizeBytes % (1 << 20) == 0
        ? sizeBytes / (1 << 20) + "MiB"
        : sizeBytes + "B";
  }
}
