package io.linkwatch.verdict;

import java.util.List;
import java.util.Optional;

/**
 * The shipped table of expected link figures per product and link type. A bandwidth measured at a
 * seed's size has its floor at 80 % and its warning band at 90 % of what the seed measured (a
 * latency: 1.25 and 1.1 times it); a published health-check threshold is taken as the floor, with
 * the warning band its authors use. A product with no row is judged only on link state and probe
 * health, and the verdict says so.
 *
 * <pre>
 * Ascend910_93  SIO         p2p            256MiB   fail < 124.1 GB/s  warn < 139.6 GB/s  (seed 000)
 * NVIDIA H100   NVLINK      p2p            ≥256MiB  fail < 335.0 GB/s  warn < 351.8 GB/s  (AzNHC)
 * Ascend910_93  pinned h2d  host_transfer  ≥256MiB  fail < 46.4 GB/s   warn < 52.2 GB/s   (seed 004)
 * Ascend910_93  2 ranks     allreduce      1KiB     fail > 341 us      warn > 300 us      (seed 001)
 * </pre>
 */
public final class ExpectedFigures {
  private static final long MIB = 1L << 20;

  /** The probes whose figures a row can judge. */
  public static final List<String> JUDGED_PROBES =
      List.of("p2p", "p2p_bidirectional", "host_transfer", "allreduce");

  /**
   * The bands of a seed's bandwidth rows, as shares of what the seed measured: below {@code
   * FAIL_SHARE} fails, below {@code WARN_SHARE} warns. The status page colours a figure with no row
   * by the same shares of its history's median.
   */
  public static final double FAIL_SHARE = 0.8;

  public static final double WARN_SHARE = 0.9;

  /** The probes whose rows are latencies (the p50), not bandwidths. */
  public static final List<String> LATENCY_PROBES = List.of("allreduce");

  /** Floors at 80 %, warnings at 90 % of a measured figure. */
  private static ExpectedFigure seed(
      String product, String link, long size, double measuredGbps, String source) {
    return new ExpectedFigure(
        product,
        link,
        "p2p",
        size,
        size,
        ExpectedFigure.Quantity.BANDWIDTH,
        FAIL_SHARE * measuredGbps * 1e9,
        WARN_SHARE * measuredGbps * 1e9,
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
        ExpectedFigure.Quantity.BANDWIDTH,
        floorGbps * 1e9,
        1.05 * floorGbps * 1e9,
        source);
  }

  /**
   * Pinned host transfer from any NUMA node, at 256 MiB and up (pinned copies go through the
   * driver's DMA staging, so the node does not matter: seed 004 measured every one of the 8 nodes
   * within 1 GB/s of the others, at 1 GB; at 256 MiB a copy is ~4 ms, its fixed cost negligible).
   */
  private static ExpectedFigure pinned(String product, String direction, double measuredGbps) {
    return new ExpectedFigure(
        product,
        "pinned " + direction,
        "host_transfer",
        256 * MIB,
        Long.MAX_VALUE,
        ExpectedFigure.Quantity.BANDWIDTH,
        FAIL_SHARE * measuredGbps * 1e9,
        WARN_SHARE * measuredGbps * 1e9,
        "seed 004, A3 pinned "
            + direction
            + " from each of 8 NUMA nodes: "
            + measuredGbps
            + " GB/s at 1 GB");
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
          published("NVIDIA H200", 335, "AzNHC check_gpu_bw D2D floor (ND H100 v5 figure)"),
          // Atlas 800T A3 host transfer (shared/seeds/004: pinned, 1 GB, all 8 NUMA nodes flat).
          pinned("Ascend910_93", "h2d", 58.0),
          pinned("Ascend910_93", "d2h", 41.0),
          // Atlas 800T A3, HCCL allreduce of 1 KiB over the two dies (shared/seeds/001: 273 us);
          // fails above 1.25 times it and warns above 1.1 times (the latency side of 80 % / 90 %).
          new ExpectedFigure(
              "Ascend910_93",
              "2 ranks",
              "allreduce",
              1024,
              1024,
              ExpectedFigure.Quantity.LATENCY,
              1.25 * 273e-6,
              1.1 * 273e-6,
              "seed 001, A3 HCCL allreduce 1 KB over 2 dies: 273 us"));

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
