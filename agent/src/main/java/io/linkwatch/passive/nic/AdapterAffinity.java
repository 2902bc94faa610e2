package io.linkwatch.passive.nic;

import io.linkwatch.passive.pcie.PcieTopology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which accelerator each InfiniBand or RoCE adapter serves, on a server whose accelerators have no
 * port of their own (GPU servers): the one nearest on the PCIe tree, the way rail-optimised hosts
 * are built (an HGX board puts each GPU and its HCA under one PCIe switch). For GPU {@code
 * 0000:1b:00.0} and HCA {@code 0000:1c:00.0} both below switch port {@code 0000:19:00.0}:
 *
 * <pre>
 * nearest({0: [1b:00.0, 1a:00.0, 19:00.0, 18:00.0, 15:01.0]},
 *         {mlx5_0: [1c:00.0, 19:00.0, 18:00.0, 15:01.0]})  ->  {mlx5_0: 0}
 * </pre>
 *
 * An adapter that shares no bridge with any accelerator (another root port: a management NIC on the
 * CPU's own lanes) serves none. Where several accelerators and adapters share the same nearest
 * bridge (two GPUs and two HCAs on one switch), they are paired in PCI address order when their
 * numbers match, and left unpaired when they do not: a wrong label would send an operator to the
 * wrong GPU.
 */
public final class AdapterAffinity {
  private AdapterAffinity() {}

  /**
   * @param accelerators each accelerator's PCIe hops, itself first, up to its root port
   * @param adapters each adapter's PCIe hops, itself first, up to its root port
   * @return the accelerator each adapter serves, for the adapters that have one
   */
  public static Map<String, Integer> nearest(
      Map<Integer, List<String>> accelerators, Map<String, List<String>> adapters) {
    // adapters and accelerators grouped by the bridge where each adapter meets its nearest
    Map<String, List<String>> adaptersAt = new TreeMap<>();
    Map<String, List<Integer>> acceleratorsAt = new HashMap<>();
    for (Map.Entry<String, List<String>> a : adapters.entrySet()) {
      int best = 0;
      List<Integer> nearest = new ArrayList<>();
      for (Map.Entry<Integer, List<String>> g : accelerators.entrySet()) {
        int shared = shared(a.getValue(), g.getValue());
        if (shared > best) {
          best = shared;
          nearest.clear();
        }
        if (shared == best && shared > 0) {
          nearest.add(g.getKey());
        }
      }
      if (best == 0) {
        continue;
      }
      List<String> path = a.getValue();
      String bridge = path.get(path.size() - best);
      adaptersAt.computeIfAbsent(bridge, k -> new ArrayList<>()).add(a.getKey());
      acceleratorsAt.put(bridge, nearest);
    }
    Map<String, Integer> out = new TreeMap<>();
    adaptersAt.forEach(
        (bridge, names) -> {
          List<Integer> devices = acceleratorsAt.get(bridge);
          if (devices.size() == 1) {
            names.forEach(n -> out.put(n, devices.get(0)));
          } else if (devices.size() == names.size()) {
            List<String> byAddress = new ArrayList<>(names);
            byAddress.sort((x, y) -> adapters.get(x).get(0).compareTo(adapters.get(y).get(0)));
            List<Integer> devicesByAddress = new ArrayList<>(devices);
            devicesByAddress.sort(
                (x, y) -> accelerators.get(x).get(0).compareTo(accelerators.get(y).get(0)));
            for (int i = 0; i < byAddress.size(); i++) {
              out.put(byAddress.get(i), devicesByAddress.get(i));
            }
          }
        });
    return out;
  }

  /** How many bridges two paths share, counted from the root port down. */
  static int shared(List<String> a, List<String> b) {
    int n = 0;
    // the last element is the root port; the first is the function itself, never shared
    while (n < a.size() - 1
        && n < b.size() - 1
        && a.get(a.size() - 1 - n).equals(b.get(b.size() - 1 - n))) {
      n++;
    }
    return n;
  }

  /**
   * A PCI function's hops, itself first, from the target of {@code bus/pci/devices/ADDRESS} under
   * {@code sysfs}; empty when sysfs has no such link (a flat fixture, a container without it).
   */
  public static List<String> path(Path sysfs, String address) {
    try {
      Path link =
          sysfs.resolve("bus/pci/devices").resolve(address.toLowerCase(java.util.Locale.ROOT));
      return PcieTopology.pathToRoot(Files.readSymbolicLink(link).toString());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return List.of();
    }
  }
}
