package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.nic.NicPort;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ports to other servers (InfiniBand and RoCE adapters), e.g.
 *
 * <pre>
 * linkwatch_nic_up{link_layer="InfiniBand",nic="mlx5_0",port="1"} 1.0
 * linkwatch_nic_speed_bits_per_second{nic="mlx5_0",port="1"} 4.0E11
 * linkwatch_nic_transmit_bytes_total{nic="mlx5_0",port="1"} 1.1523046035392E13
 * linkwatch_nic_errors_total{kind="symbol_error",nic="mlx5_0",port="1"} 0.0
 * linkwatch_nic_link_downed_total{nic="mlx5_0",port="1"} 0.0
 * linkwatch_nic_info{link_layer="Ethernet",netdev="ens1f0",nic="mlx5_0",phys_state="LinkUp",port="1",state="ACTIVE"} 1
 * </pre>
 *
 * Counters stay counters (a driver reload resets them; the 8- and 16-bit error counters of the
 * standard set stop at their maximum, so their rate then reads 0); a counter the adapter lacks has
 * no series. {@code linkwatch_nic_was_up} says whether the port was up at any read since the agent
 * started, so an alert can tell a port that went down from one unused by design.
 */
final class NicMetrics {
  static final String UP = "linkwatch_nic_up";
  static final String WAS_UP = "linkwatch_nic_was_up";
  static final String SPEED = "linkwatch_nic_speed_bits_per_second";
  static final String TRANSMIT = "linkwatch_nic_transmit_bytes";
  static final String RECEIVE = "linkwatch_nic_receive_bytes";
  static final String LINK_DOWNED = "linkwatch_nic_link_downed";
  static final String ERRORS = "linkwatch_nic_errors";
  static final String INFO = "linkwatch_nic";

  private NicMetrics() {}

  private record PortKey(String nic, int port) {
    String[] labels() {
      return new String[] {"nic", nic, "port", String.valueOf(port)};
    }
  }

  private record ErrorKey(PortKey port, String kind) {}

  static void write(List<PassiveStore.NicState> states, MetricFamilies f) {
    if (states.isEmpty()) {
      return;
    }
    MetricFamilies.Gauge up =
        f.gauge(UP, "1 if the adapter port is ACTIVE (logical state), 0 otherwise.", null);
    MetricFamilies.Gauge wasUp =
        f.gauge(
            WAS_UP,
            "1 if the port was ACTIVE at any read since the agent started: a port down from the"
                + " start may be unused by design.",
            null);
    MetricFamilies.Gauge speed =
        f.gauge(SPEED, "The speed the port trained at (sysfs rate), in bits per second.", null);
    Map<PortKey, Long> tx = new LinkedHashMap<>();
    Map<PortKey, Long> rx = new LinkedHashMap<>();
    Map<PortKey, Long> downed = new LinkedHashMap<>();
    Map<ErrorKey, Long> errors = new LinkedHashMap<>();
    for (PassiveStore.NicState s : states) {
      NicPort p = s.port();
      PortKey key = new PortKey(p.nic(), p.port());
      up.add(
          p.up() ? 1 : 0,
          "link_layer",
          p.linkLayer() == null ? "" : p.linkLayer(),
          "nic",
          p.nic(),
          "port",
          String.valueOf(p.port()));
      wasUp.add(s.wasUp() ? 1 : 0, key.labels());
      if (p.rateBitsPerSecond() != null) {
        speed.add(p.rateBitsPerSecond(), key.labels());
      }
      if (p.transmitBytes() != null) {
        tx.put(key, p.transmitBytes());
      }
      if (p.receiveBytes() != null) {
        rx.put(key, p.receiveBytes());
      }
      if (p.linkDowned() != null) {
        downed.put(key, p.linkDowned());
      }
      p.errors().forEach((kind, n) -> errors.put(new ErrorKey(key, kind), n));
      f.info(
          INFO,
          "The port's link layer, states and network interface, as sysfs names them.",
          "link_layer",
          p.linkLayer() == null ? "" : p.linkLayer(),
          "netdev",
          p.netdev() == null ? "" : p.netdev(),
          "nic",
          p.nic(),
          "phys_state",
          p.physState() == null ? "" : p.physState(),
          "port",
          String.valueOf(p.port()),
          "state",
          p.state() == null ? "" : p.state());
    }
    f.counter(TRANSMIT, "Bytes the port sent (sysfs port_xmit_data x 4).", tx, PortKey::labels);
    f.counter(RECEIVE, "Bytes the port received (sysfs port_rcv_data x 4).", rx, PortKey::labels);
    f.counter(
        LINK_DOWNED,
        "How often the port's link went down (8 bits: stops at 255).",
        downed,
        PortKey::labels);
    f.counter(
        ERRORS,
        "Port errors by kind, the sysfs counter's name: symbol_error, link_error_recovery,"
            + " port_rcv_errors, ... and the RoCE counters (out_of_sequence, local_ack_timeout_err,"
            + " ...).",
        errors,
        k -> MetricFamilies.withLabel(k.port().labels(), "kind", k.kind()));
  }
}
