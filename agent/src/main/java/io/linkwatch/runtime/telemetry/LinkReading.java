package io.linkwatch.runtime.telemetry;

import java.util.Map;

/**
 * One link of one device as the vendor's management library reported it, raw: counters in the
 * library's own units and widths, so that the agent (which outlives any watcher process) unwraps
 * them. A field the library does not support on this product is null and gets no series.
 *
 * <p>For example an HCCS port read through DCMI's 32-bit statistics: {@code link="3",
 * linkType="HCCS", peer="3", up=true, lanes=4, lanesMax=4, counterBits=32, trafficUnitBytes=20,
 * txUnits=81234, rxUnits=80017, errors={crc=0, retry=2}}.
 *
 * @param link the link's index as the vendor numbers it (HCCS PCS index, NVLink index, SIO "0")
 * @param linkType HCCS, SIO or NVLINK
 * @param peer the device at the other end, {@code nvswitch}, or {@code unknown}
 * @param up whether the link is up, or null where the library has no state for it (SIO)
 * @param lanes lanes in use now, or null
 * @param lanesMax the link's full lane count, or null
 * @param counterBits the width at which the library's counters wrap (16, 32 or 64)
 * @param trafficUnitBytes bytes per traffic unit (a 20-byte HCCS flit, NVML's KiB)
 * @param txUnits transmitted traffic in units, or null
 * @param rxUnits received traffic in units, or null
 * @param errors error counters by kind ({@code crc}, {@code retry}, {@code crc_tx}, ...)
 */
public record LinkReading(
    String link,
    String linkType,
    String peer,
    Boolean up,
    Integer lanes,
    Integer lanesMax,
    int counterBits,
    long trafficUnitBytes,
    Long txUnits,
    Long rxUnits,
    Map<String, Long> errors) {

  public LinkReading {
    errors = errors == null ? Map.of() : Map.copyOf(errors);
  }
}
