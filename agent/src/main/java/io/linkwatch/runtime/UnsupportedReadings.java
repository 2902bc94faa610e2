package io.linkwatch.runtime;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each device's management library said it does not support, by reading: such a reading is not
 * asked again in this process (the answer does not change while the driver runs), gets no series,
 * and is listed in the status, e.g. {@code dcmi_get_device_info(SIO CRC errors, main 56 sub 0)
 * returned -8255: not supported on this device}.
 */
public final class UnsupportedReadings {
  private final Map<Integer, Map<String, String>> byDevice = new HashMap<>();

  /** Whether {@code reading} of {@code device} was found unsupported before. */
  public synchronized boolean has(int device, String reading) {
    return byDevice.getOrDefault(device, Map.of()).containsKey(reading);
  }

  /** Notes that {@code device} does not support {@code reading}, as {@code why} says. */
  public synchronized void add(int device, String reading, String why) {
    byDevice.computeIfAbsent(device, d -> new LinkedHashMap<>()).putIfAbsent(reading, why);
  }

  /** The reasons of every unsupported reading of {@code device}, in the order they were found. */
  public synchronized List<String> of(int device) {
    return List.copyOf(byDevice.getOrDefault(device, Map.of()).values());
  }
}
