package io.linkwatch.passive;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a product's ports to other servers should be: the speed each collective port trains at, and
 * how many such ports a host has. A port below the speed, or a host with fewer ports at it than the
 * count, is a finding.
 *
 * @param product the start of the device name the topology reports, compared without case
 * @param reader whose ports the row judges: {@code hccn_tool} (each NPU's own RoCE port, every one
 *     a collective port, so every one is held to the speed) or {@code infiniband} (the adapters in
 *     sysfs, where a management port may share the host: only the count of ports at the speed is
 *     judged)
 * @param speedBitsPerSecond the speed a port should train at
 * @param count how many ports of the reader should be up at that speed or faster; 0 for no count
 * @param source where the figures come from
 */
public record ExpectedPorts(
    String product, PassiveSource reader, double speedBitsPerSecond, int count, String source) {

  /** The readers a row can name. */
  public static final List<PassiveSource> READERS =
      List.of(PassiveSource.HCCN_TOOL, PassiveSource.INFINIBAND);

  /**
   * The shipped rows: gpud's expected ports per NVIDIA SKU (at least 8 ports at 400 Gb/s on H100,
   * H200, B200 and GB200, the rail-optimised ND H100 v5 / HGX layout; at least one at 200 Gb/s on
   * A100). No Ascend row ships: no source gives the speed of an NPU's own port per product; an
   * operator's {@code expected_ports} row sets it.
   */
  public static final List<ExpectedPorts> SHIPPED =
      List.of(
          gpud("NVIDIA H100", 400, 8),
          gpud("NVIDIA H200", 400, 8),
          gpud("NVIDIA B200", 400, 8),
          gpud("NVIDIA GB200", 400, 8),
          gpud("NVIDIA A100", 200, 1));

  private static ExpectedPorts gpud(String product, int gbit, int count) {
    return new ExpectedPorts(
        product,
        PassiveSource.INFINIBAND,
        gbit * 1e9,
        count,
        "gpud: " + count + " x " + gbit + " Gb/s per " + product.substring(7));
  }

  public boolean matches(String deviceName, PassiveSource portReader) {
    return deviceName != null
        && reader == portReader
        && deviceName.toLowerCase(Locale.ROOT).startsWith(product.toLowerCase(Locale.ROOT));
  }

  /** The first row of {@code table} for a device of this name and a port of this reader. */
  public static Optional<ExpectedPorts> find(
      List<ExpectedPorts> table, String deviceName, PassiveSource reader) {
    return table.stream().filter(r -> r.matches(deviceName, reader)).findFirst();
  }

  /** {@code 400 Gb/s}. */
  public static String formatSpeed(double bitsPerSecond) {
    double gbit = bitsPerSecond / 1e9;
    return (gbit == Math.rint(gbit)
            ? String.format(Locale.ROOT, "%.0f", gbit)
            : String.format(Locale.ROOT, "%.1f", gbit))
        + " Gb/s";
  }
}
