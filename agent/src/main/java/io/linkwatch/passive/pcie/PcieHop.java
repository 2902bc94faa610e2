package io.linkwatch.passive.pcie;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One PCI function on the path from a device to its root port, with its link state and AER totals
 * as sysfs showed them at one read. The bridge above a GPU whose link trained down might read:
 *
 * <pre>
 * PcieHop[pciAddress=0000:17:00.0, role=BRIDGE,
 *         speedTransfersPerSecond=OptionalDouble[8.0E9], maxSpeedTransfersPerSecond=OptionalDouble[3.2E10],
 *         width=OptionalInt[8], maxWidth=OptionalInt[16],
 *         aerTotals={CORRECTABLE=0, NONFATAL=3, FATAL=0}]
 * </pre>
 *
 * A value sysfs did not give (no file, an unreadable file, {@code "Unknown"} speed) is empty, and a
 * severity whose file was not there has no key: the metrics then have no series rather than a
 * sentinel. A width of 0 is a real value (a link that trained to nothing), not an absence.
 *
 * @param pciAddress in sysfs form, lower case, e.g. {@code 0000:3b:00.0}
 * @param speedTransfersPerSecond {@code current_link_speed}, GT/s x 1e9
 * @param maxSpeedTransfersPerSecond {@code max_link_speed}, GT/s x 1e9
 * @param width {@code current_link_width}, lanes
 * @param maxWidth {@code max_link_width}, lanes
 * @param aerTotals the {@code TOTAL_ERR_*} count of each {@code aer_dev_*} file that was read
 */
public record PcieHop(
    String pciAddress,
    PcieRole role,
    OptionalDouble speedTransfersPerSecond,
    OptionalDouble maxSpeedTransfersPerSecond,
    OptionalInt width,
    OptionalInt maxWidth,
    Map<AerSeverity, Long> aerTotals) {

  public PcieHop {
    Objects.requireNonNull(pciAddress, "pciAddress");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(speedTransfersPerSecond, "speedTransfersPerSecond");
    Objects.requireNonNull(maxSpeedTransfersPerSecond, "maxSpeedTransfersPerSecond");
    Objects.requireNonNull(width, "width");
    Objects.requireNonNull(maxWidth, "maxWidth");
    // An EnumMap keeps the severities in label order for whoever renders them; it cannot be built
    // from an empty plain map, hence the putAll.
    EnumMap<AerSeverity, Long> totals = new EnumMap<>(AerSeverity.class);
    totals.putAll(aerTotals);
    totals.values().forEach(v -> Objects.requireNonNull(v, "aerTotals value"));
    aerTotals = Collections.unmodifiableMap(totals);
  }
}
