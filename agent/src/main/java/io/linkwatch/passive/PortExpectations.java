package io.linkwatch.passive;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Holds this host's ports to other servers to the rows of the expected-ports table that its
 * devices' products match: each NPU's own port to its row's speed, and the count of a reader's
 * ports up at the speed to the row's count. The products come from the topology probe's inventory,
 * so nothing is judged before the first topology run names the devices.
 */
public final class PortExpectations {
  /** A host judged on nothing: no table row applies. */
  public static final PortExpectations NONE = new PortExpectations(List.of(), Map::of);

  /**
   * One count row as this host meets it.
   *
   * @param atSpeed the reader's ports that are up at the row's speed or faster
   */
  public record PortCount(
      PassiveSource reader,
      String product,
      int count,
      int atSpeed,
      double speedBitsPerSecond,
      String source) {
    public boolean shortOfCount() {
      return atSpeed < count;
    }
  }

  private final List<ExpectedPorts> table;
  private final Supplier<Map<Integer, String>> deviceNames;

  /**
   * @param table the operator's rows first, then the shipped ones: the first that matches judges
   * @param deviceNames each device's product name, as the topology names it
   */
  public PortExpectations(List<ExpectedPorts> table, Supplier<Map<Integer, String>> deviceNames) {
    this.table = List.copyOf(table);
    this.deviceNames = deviceNames;
  }

  /**
   * These expectations with the products read once, for judging every port of one scrape against
   * the same inventory without asking the result store again for each port.
   */
  public PortExpectations now() {
    Map<Integer, String> names = deviceNames.get();
    return new PortExpectations(table, () -> names);
  }

  /** The devices the topology's inventory names, ascending; empty before its first run. */
  public List<Integer> devices() {
    return deviceNames.get().keySet().stream().sorted().toList();
  }

  /**
   * The speed a port should train at: only an accelerator's own port (read by {@code hccn_tool}),
   * every one of which carries collectives; null when no row applies.
   */
  public Double speedOf(PassiveSource reader, Integer device) {
    if (device == null || reader != PassiveSource.HCCN_TOOL) {
      return null;
    }
    return ExpectedPorts.find(table, deviceNames.get().get(device), reader)
        .map(ExpectedPorts::speedBitsPerSecond)
        .orElse(null);
  }

  /**
   * Each count row this host's products match, against {@code ports}, for the readers in {@code
   * seen}: a reader that has found no port since the agent started (a host without adapters, on an
   * Ethernet-only network) is not held to a count.
   */
  public List<PortCount> counts(Collection<PassiveStore.NicState> ports, Set<PassiveSource> seen) {
    Set<ExpectedPorts> rows = new LinkedHashSet<>();
    for (String name : deviceNames.get().values()) {
      for (PassiveSource reader : ExpectedPorts.READERS) {
        if (seen.contains(reader)) {
          Optional<ExpectedPorts> row = ExpectedPorts.find(table, name, reader);
          row.filter(r -> r.count() > 0).ifPresent(rows::add);
        }
      }
    }
    List<PortCount> out = new ArrayList<>();
    for (ExpectedPorts r : rows) {
      int atSpeed = 0;
      for (PassiveStore.NicState s : ports) {
        Double speed = s.port().rateBitsPerSecond();
        if (s.source() == r.reader()
            && s.port().up()
            && speed != null
            && speed >= r.speedBitsPerSecond()) {
          atSpeed++;
        }
      }
      out.add(
          new PortCount(
              r.reader(), r.product(), r.count(), atSpeed, r.speedBitsPerSecond(), r.source()));
    }
    return out;
  }
}
