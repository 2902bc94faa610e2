package io.linkwatch.verdict;

import java.util.List;
import java.util.Optional;

/**
 * Lookups in a table of expected link figures per product and link type: the operator's rows, then
 * the shipped table ({@code config/expected-figures.yaml}, read by {@code ExpectedFigureTable}),
 * which holds rows like the ones below. A bandwidth measured at a seed's size has its floor at 80 %
 * and its warning band at 90 % of what the seed measured (a latency: 1.25 and 1.1 times it); a
 * published health-check threshold is taken as the floor, with the warning band its authors use. A
 * product with no row is judged only on link state and probe health, and the verdict says so.
 *
 * <pre>
 * Ascend910_93  SIO         p2p            256MiB   fail < 124.1 GB/s  warn < 139.6 GB/s  (seed 000)
 * NVIDIA H100   NVLINK      p2p            ≥256MiB  fail < 335.0 GB/s  warn < 351.8 GB/s  (AzNHC)
 * Ascend910_93  pinned h2d  host_transfer  ≥256MiB  fail < 46.4 GB/s   warn < 52.2 GB/s   (seed 004)
 * Ascend910_93  2 ranks     allreduce      1KiB     fail > 341 us      warn > 300 us      (seed 001)
 * </pre>
 */
public final class ExpectedFigures {
  /**
   * The bands of a seed's bandwidth rows, as shares of what the seed measured: below {@code
   * FAIL_SHARE} fails, below {@code WARN_SHARE} warns. The status page colours a figure with no row
   * by the same shares of its history's median.
   */
  public static final double FAIL_SHARE = 0.8;

  public static final double WARN_SHARE = 0.9;

  private ExpectedFigures() {}

  /** The row for a measurement, if the table has one. */
  public static Optional<ExpectedFigure> find(
      List<ExpectedFigure> table, String deviceName, String link, String probe, long sizeBytes) {
    return table.stream().filter(f -> f.matches(deviceName, link, probe, sizeBytes)).findFirst();
  }

  /** Whether the table has any row for the product. */
  public static boolean knows(List<ExpectedFigure> table, String deviceName) {
    return table.stream()
        .anyMatch(f -> f.matches(deviceName, f.linkType(), f.probe(), f.minSizeBytes()));
  }
}
