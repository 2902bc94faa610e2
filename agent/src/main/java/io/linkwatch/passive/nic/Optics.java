package io.linkwatch.passive.nic;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The optical module of a port, as its own diagnostics report it, in base units (watts, amperes,
 * volts, degrees Celsius, decibels) and per lane where the module has lanes. A reading the module
 * does not give is absent; one it says it cannot give ({@code not supported}, {@code NA}) is named
 * in {@code unsupported} instead, never carried as a sentinel.
 *
 * @param present the module's own word for whether it is seated ({@code present}, {@code not
 *     present}: some drivers print the latter beside live readings), or null
 * @param temperatureCelsius the module's temperature
 * @param supplyVolts its supply voltage (Vcc)
 * @param txPowerWatts transmit power by lane
 * @param rxPowerWatts receive power by lane
 * @param biasAmperes laser bias current by lane
 * @param hostSnrDecibels host-side signal-to-noise ratio by lane
 * @param mediaSnrDecibels media-side signal-to-noise ratio by lane
 * @param unsupported the readings the module said it cannot give, by the name it printed
 */
public record Optics(
    String present,
    Double temperatureCelsius,
    Double supplyVolts,
    SortedMap<Integer, Double> txPowerWatts,
    SortedMap<Integer, Double> rxPowerWatts,
    SortedMap<Integer, Double> biasAmperes,
    SortedMap<Integer, Double> hostSnrDecibels,
    SortedMap<Integer, Double> mediaSnrDecibels,
    List<String> unsupported) {

  public Optics {
    txPowerWatts = copy(txPowerWatts);
    rxPowerWatts = copy(rxPowerWatts);
    biasAmperes = copy(biasAmperes);
    hostSnrDecibels = copy(hostSnrDecibels);
    mediaSnrDecibels = copy(mediaSnrDecibels);
    unsupported = unsupported == null ? List.of() : List.copyOf(unsupported);
  }

  /** Whether the module gave no reading at all (no module, or a port without optics). */
  public boolean empty() {
    return temperatureCelsius == null
        && supplyVolts == null
        && txPowerWatts.isEmpty()
        && rxPowerWatts.isEmpty()
        && biasAmperes.isEmpty()
        && hostSnrDecibels.isEmpty()
        && mediaSnrDecibels.isEmpty();
  }

  private static SortedMap<Integer, Double> copy(Map<Integer, Double> m) {
    return m == null
        ? java.util.Collections.emptySortedMap()
        : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(m));
  }
}
