package io.linkwatch.verdict;

import java.util.List;
import java.util.Optional;

/**
 * The shipped table of expected link figures per product and link type. A figure measured at a
 * seed's size has its floor at 80 % and its warning band at 90 % of what the seed measured; a
 * published health-check threshold is taken as the floor, with the warning band its authors use. A
 * product with no row is judged only on link state and probe health, and the verdict says so.
 *
 * <pre>
 * Ascend910_93  SIO     p2p  256MiB  floor 124.1 GB/s  warn 139.6 GB/s  (seed 000: 155.1 GB/s)
 * NVIDIA H100   NVLINK  p2p  ≥256MiB  floor 335.0 GB/s  warn 351.8 GB/s  (AzNHC check_gpu_bw)
 * </pre>
 */
public final class ExpectedFigures {
  private static final long MIB = 1L << 20;

  /** The probes whose figures a row can judge. */
  public static final List<String> JUDGED_PROBES = List.of("p2p", "p2p_bidirectional");

  /** Floors at 80 %, warnings at 90 % of a measured figure. */
  private static ExpectedFigure seed(
      String product, String link, long size, double measuredGbps, String source) {
    return new ExpectedFigure(
        product,
        link,
        "p2p",
        size,
        size,
        0.8 * measuredGbps * 1e9,
        0.9 * measuredGbps * 1e9,
        source + ": " + measuredGbps + " GB/s at " + size / MIB + " MiB");
  }

  /**
   * A published per-pair device-to-device floor; warns below 1.05 times it, as AzNHC does. It
   * applies from 256 MiB up: nvbandwidth measures with 512 MiB buffers, where a copy's fixed cost
   * is negligible; at 64 MiB it is not.
   */
  private static ExpectedFigure published(String product, double floorGbps, String source) {
    return new ExpectedFigure(
        product,
        "NVLINK",
        "p2p",
        256 * MIB,
        Long.MAX_VALUE,
        floorGbps * 1e9,
        1.05 * floorGbps * 1e9,
        source);
  }

  public static final List<ExpectedFigure> SHIPPED =
      List.of(
          // Atlas 800T A3, the two dies of one package over SIO (shared/seeds/000: fp16, median of
          // 20 copies, 0->1; 1->0 within 1 %).
          seed("Ascend910_93", "SIO", 64 * MIB, 116.5, "seed 000, A3 SIO 0->1"),
          seed("Ascend910_93", "SIO", 256 * MIB, 155.1, "seed 000, A3 SIO 0->1"),
          seed("Ascend910_93", "SIO", 1024 * MIB, 182.4, "seed 000, A3 SIO 0->1"),
          seed("Ascend910_93", "SIO", 2048 * MIB, 186.7, "seed 000, A3 SIO 0->1"),
          // ND H100 v5 and H200: nvbandwidth device_to_device_memcpy_read_ce >= 335 GB/s per pair
          // (Azure azurehpc-health-checks, conf/nd96isr_h100_v5.conf, check_gpu_bw 48 335).
          published("NVIDIA H100", 335, "AzNHC check_gpu_bw D2D floor (ND H100 v5)"),
          published("NVIDIA H200", 335, "AzNHC check_gpu_bw D2D floor (ND H100 v5 figure)"));

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
