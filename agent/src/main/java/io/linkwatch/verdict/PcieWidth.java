package io.linkwatch.verdict;

import io.linkwatch.passive.pcie.PcieRole;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.verdict.Verdict.Finding;
import io.linkwatch.verdict.Verdict.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * PCIe hops on a device's path to its root port that run on fewer lanes than the narrowest maximum
 * of that path ({@code LW-PCIE-WIDTH}), one finding per hop with every device under it: a switch
 * port above two devices names the switch, not either device. The same test as the alert
 * LinkwatchPcieLinkDegraded's width rule, and a warning as it is: the devices work, their host
 * transfers get a fraction of their bandwidth. Width, unlike speed, does not drop to save power up
 * to Gen5, so an idle device's reading counts; speed is left to the alert, which looks only while
 * the device is busy.
 */
final class PcieWidth {
  private PcieWidth() {}

  /** A hop and what is known of it: the devices under it and their paths' narrowest maximum. */
  private record Hop(
      PcieRole role, int width, TreeSet<Integer> devices, int narrowestMax, Instant read) {}

  static List<Finding> findings(PassiveSection p, Instant now) {
    Map<String, Hop> narrow = new TreeMap<>();
    for (PassiveSection.Device d : p.devices()) {
      OptionalInt narrowest =
          d.pcie().stream()
              .filter(h -> h.maxWidth() != null && h.maxWidth() > 0)
              .mapToInt(PassiveSection.PcieLink::maxWidth)
              .min();
      if (narrowest.isEmpty()) {
        continue;
      }
      for (PassiveSection.PcieLink h : d.pcie()) {
        if (h.width() == null || h.width() <= 0 || h.width() >= narrowest.getAsInt()) {
          continue;
        }
        Hop hop =
            narrow.computeIfAbsent(
                h.pciAddress(),
                a ->
                    new Hop(
                        h.role(), h.width(), new TreeSet<>(), narrowest.getAsInt(), d.lastRead()));
        hop.devices().add(d.device());
      }
    }
    List<Finding> out = new ArrayList<>();
    narrow.forEach(
        (address, hop) ->
            out.add(
                new Finding(
                        "LW-PCIE-WIDTH",
                        State.WARN,
                        "pcie " + address,
                        where(hop)
                            + " runs at x"
                            + hop.width()
                            + ", the narrowest maximum on the path x"
                            + hop.narrowestMax()
                            + Verdict.age("read ", hop.read(), now))
                    .about(Subsystem.PCIE, hop.devices().toArray(Integer[]::new))));
    return out;
  }

  /** E.g. {@code bridge above devices 2, 3} or {@code device 3's own function}. */
  private static String where(Hop hop) {
    String devices = hop.devices().stream().map(String::valueOf).collect(Collectors.joining(", "));
    return switch (hop.role()) {
      case DEVICE -> "device " + devices + "'s own function";
      case BRIDGE -> "bridge above device" + (hop.devices().size() > 1 ? "s " : " ") + devices;
      case ROOT_PORT ->
          "root port above device" + (hop.devices().size() > 1 ? "s " : " ") + devices;
    };
  }
}
