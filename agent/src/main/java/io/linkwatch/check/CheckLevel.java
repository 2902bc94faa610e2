package io.linkwatch.check;

import io.linkwatch.registry.ProbeKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How much a {@code linkwatch check} measures, as DCGM's diagnostic levels do: {@code quick} before
 * a job (a Slurm prolog, within the 60 s HealthCheckTimeout), {@code medium} after one (an epilog,
 * within 3 minutes). Each level is a list of probe runs with their settings, as the probes' own
 * config keys give them; the link state (passive reads) is part of both.
 *
 * <ul>
 *   <li>quick: topology, p2p at 256 MiB (10 copies) for every ordered pair, 1 KiB allreduce;
 *   <li>medium: topology, p2p at 256 MiB and 1 GiB (20 copies), both directions at once at 256 MiB,
 *       pinned and pageable host transfer at 256 MiB from every NUMA node, and allreduce at 1 KiB
 *       and 256 MiB.
 * </ul>
 */
public enum CheckLevel {
  QUICK(Duration.ofSeconds(50)),
  MEDIUM(Duration.ofSeconds(170));

  private final Duration defaultTimeout;

  CheckLevel(Duration defaultTimeout) {
    this.defaultTimeout = defaultTimeout;
  }

  /** What the whole check may take unless {@code --timeout} says otherwise. */
  public Duration defaultTimeout() {
    return defaultTimeout;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Every level's id, in order: {@code [quick, medium]}. */
  public static List<String> ids() {
    return Arrays.stream(values()).map(CheckLevel::id).toList();
  }

  public static CheckLevel parse(String text) {
    for (CheckLevel l : values()) {
      if (l.id().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return l;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not a level: use quick or medium");
  }

  /**
   * One probe run of a check.
   *
   * @param settings the probe's settings by config key, values as a config file would write them
   */
  public record Step(ProbeKind kind, Map<String, List<String>> settings) {
    public Step {
      settings = Map.copyOf(settings);
    }
  }

  /**
   * The runs of this level on {@code devices} (empty: every device). A probe that needs more
   * devices than given (a pair, a group) is left out.
   */
  public List<Step> steps(List<Integer> devices) {
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(ProbeKind.TOPOLOGY, Map.of()));
    boolean pairs = devices.isEmpty() || devices.size() >= 2;
    if (this == QUICK) {
      if (pairs) {
        steps.add(p2p(devices, "256MiB", "2", "10"));
        steps.add(allreduce(devices, "1KiB", "5", "50"));
      }
      return steps;
    }
    if (pairs) {
      steps.add(p2p(devices, "256MiB,1GiB", "3", "20"));
      Map<String, List<String>> bidir =
          settings("sizes", "256MiB", "warmup", "2", "iterations", "10");
      if (!devices.isEmpty()) {
        bidir.put("pairs", bidirectionalPairs(devices));
      }
      steps.add(new Step(ProbeKind.P2P_BIDIRECTIONAL, bidir));
    }
    steps.add(
        new Step(
            ProbeKind.HOST_TRANSFER,
            withDevices(
                devices,
                "devices",
                settings("sizes", "256MiB", "warmup", "1", "iterations", "5"))));
    if (pairs) {
      steps.add(allreduce(devices, "1KiB,256MiB", "3", "20"));
    }
    return steps;
  }

  private static Step p2p(List<Integer> devices, String sizes, String warmup, String iterations) {
    Map<String, List<String>> s =
        settings("sizes", sizes, "warmup", warmup, "iterations", iterations);
    if (!devices.isEmpty()) {
      List<String> pairs = new ArrayList<>();
      for (int a : devices) {
        for (int b : devices) {
          if (a != b) {
            pairs.add(a + "->" + b);
          }
        }
      }
      s.put("pairs", pairs);
    }
    return new Step(ProbeKind.P2P, s);
  }

  private static Step allreduce(
      List<Integer> devices, String sizes, String warmup, String iterations) {
    return new Step(
        ProbeKind.ALLREDUCE,
        withDevices(
            devices,
            "devices",
            settings("sizes", sizes, "warmup", warmup, "iterations", iterations)));
  }

  private static List<String> bidirectionalPairs(List<Integer> devices) {
    List<String> pairs = new ArrayList<>();
    for (int i = 0; i < devices.size(); i++) {
      for (int j = i + 1; j < devices.size(); j++) {
        int a = Math.min(devices.get(i), devices.get(j));
        int b = Math.max(devices.get(i), devices.get(j));
        pairs.add(a + "<->" + b);
      }
    }
    return pairs;
  }

  /** Key, comma-separated values, key, values, ... as a mutable map. */
  private static Map<String, List<String>> settings(String... keyValues) {
    Map<String, List<String>> s = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      s.put(keyValues[i], List.of(keyValues[i + 1].split(",")));
    }
    return s;
  }

  private static Map<String, List<String>> withDevices(
      List<Integer> devices, String key, Map<String, List<String>> s) {
    if (!devices.isEmpty()) {
      s.put(key, devices.stream().map(String::valueOf).toList());
    }
    return s;
  }
}
