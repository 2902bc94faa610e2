package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.PortExpectations;
import io.linkwatch.passive.nic.NetHealth;
import io.linkwatch.passive.nic.NicPort;
import io.linkwatch.passive.nic.Optics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ports to other servers (InfiniBand and RoCE adapters), e.g.
 *
 * <pre>
 * linkwatch_nic_up{link_layer="InfiniBand",nic="mlx5_0",port="1"} 1.0
 * linkwatch_nic_speed_bytes_per_second{nic="mlx5_0",port="1"} 5.0E10
 * linkwatch_nic_transmit_bytes_total{nic="mlx5_0",port="1"} 1.1523046035392E13
 * linkwatch_nic_errors_total{kind="symbol_error",nic="mlx5_0",port="1"} 0.0
 * linkwatch_nic_link_downed_total{nic="mlx5_0",port="1"} 0.0
 * linkwatch_nic_info{link_layer="Ethernet",netdev="ens1f0",nic="mlx5_0",phys_state="LinkUp",port="1",state="ACTIVE"} 1
 * </pre>
 *
 * An NPU's own port (hccn_tool) carries the {@code device} it serves, its link ups, its optical
 * module's readings per lane in base units, and its net health as a state set:
 *
 * <pre>
 * linkwatch_nic_link_ups_total{device="3",nic="npu3",port="0"} 2.0
 * linkwatch_nic_optical_rx_power_watts{device="3",lane="1",nic="npu3",port="0"} 5.4E-6
 * linkwatch_nic_net_health{device="3",nic="npu3",port="0",state="socket_fail"} 1.0
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
  static final String SPEED = "linkwatch_nic_speed_bytes_per_second";
  static final String TRANSMIT = "linkwatch_nic_transmit_bytes";
  static final String RECEIVE = "linkwatch_nic_receive_bytes";
  static final String LINK_DOWNED = "linkwatch_nic_link_downed";
  static final String LINK_UPS = "linkwatch_nic_link_ups";
  static final String ERRORS = "linkwatch_nic_errors";
  static final String NET_HEALTH = "linkwatch_nic_net_health";
  static final String OPTICAL_TEMPERATURE = "linkwatch_nic_optical_temperature_celsius";
  static final String OPTICAL_SUPPLY = "linkwatch_nic_optical_supply_volts";
  static final String OPTICAL_TX_POWER = "linkwatch_nic_optical_tx_power_watts";
  static final String OPTICAL_RX_POWER = "linkwatch_nic_optical_rx_power_watts";
  static final String OPTICAL_BIAS = "linkwatch_nic_optical_bias_amperes";
  static final String OPTICAL_SNR = "linkwatch_nic_optical_snr_decibels";
  static final String INFO = "linkwatch_nic";
  static final String EXPECTED_SPEED = "linkwatch_nic_expected_speed_bytes_per_second";
  static final String EXPECTED_PORTS = "linkwatch_nic_expected_ports";
  static final String PORTS_AT_SPEED = "linkwatch_nic_ports_at_expected_speed";
  static final String EXPECTED_PORT_SPEED = "linkwatch_nic_expected_port_speed_bytes_per_second";

  /**
   * Port speeds are published in bytes per second, Prometheus' base unit (as node_exporter's {@code
   * node_infiniband_rate_bytes_per_second}); a 400 Gb/s port reads 5.0E10. Rules and panels
   * multiply by 8 where a person reads Gb/s.
   */
  private static final double BITS_PER_BYTE = 8;

  private NicMetrics() {}

  private record PortKey(Integer device, String nic, int port) {
    String[] labels() {
      return device == null
          ? new String[] {"nic", nic, "port", String.valueOf(port)}
          : new String[] {
            "device", String.valueOf(device), "nic", nic, "port", String.valueOf(port)
          };
    }

    String[] lane(int lane) {
      return MetricFamilies.withLabel(labels(), "lane", String.valueOf(lane));
    }
  }

  private record ErrorKey(PortKey port, String kind) {}

  static void write(List<PassiveStore.NicState> states, MetricFamilies f) {
    if (states.isEmpty()) {
      return;
    }
    MetricFamilies.Gauge up =
        f.gauge(
            UP,
            "1 if the port is ACTIVE (its logical state, or hccn_tool's link UP), else 0.",
            null);
    MetricFamilies.Gauge wasUp =
        f.gauge(
            WAS_UP,
            "1 if the port was ACTIVE at any read since the agent started: a port down from the"
                + " start may be unused by design.",
            null);
    MetricFamilies.Gauge speed =
        f.gauge(
            SPEED,
            "The speed the port trained at (sysfs rate, hccn_tool -speed), in bytes per second (a"
                + " 400 Gb/s port: 5.0E10).",
            null);
    MetricFamilies.Gauge health =
        f.gauge(
            NET_HEALTH,
            "The NPU's own probe of its detect address (hccn_tool -net_health), as a state set: 1"
                + " for the state it is in. success and init are healthy.",
            null);
    MetricFamilies.Gauge temperature =
        f.gauge(OPTICAL_TEMPERATURE, "The optical module's temperature, in degrees Celsius.", null);
    MetricFamilies.Gauge supply =
        f.gauge(OPTICAL_SUPPLY, "The optical module's supply voltage (Vcc), in volts.", null);
    MetricFamilies.Gauge txPower =
        f.gauge(OPTICAL_TX_POWER, "Transmit power of the optical module by lane, in watts.", null);
    MetricFamilies.Gauge rxPower =
        f.gauge(OPTICAL_RX_POWER, "Receive power of the optical module by lane, in watts.", null);
    MetricFamilies.Gauge bias =
        f.gauge(
            OPTICAL_BIAS, "Laser bias current of the optical module by lane, in amperes.", null);
    MetricFamilies.Gauge snr =
        f.gauge(
            OPTICAL_SNR,
            "Signal-to-noise ratio of the optical module by lane and side (host, media), in"
                + " decibels.",
            null);
    Map<PortKey, Long> tx = new LinkedHashMap<>();
    Map<PortKey, Long> rx = new LinkedHashMap<>();
    Map<PortKey, Long> downed = new LinkedHashMap<>();
    Map<PortKey, Long> ups = new LinkedHashMap<>();
    Map<ErrorKey, Long> errors = new LinkedHashMap<>();
    for (PassiveStore.NicState s : states) {
      NicPort p = s.port();
      PortKey key = new PortKey(p.device(), p.nic(), p.port());
      up.add(
          p.up() ? 1 : 0,
          MetricFamilies.withLabel(
              key.labels(), "link_layer", p.linkLayer() == null ? "" : p.linkLayer()));
      wasUp.add(s.wasUp() ? 1 : 0, key.labels());
      if (p.rateBitsPerSecond() != null) {
        speed.add(p.rateBitsPerSecond() / BITS_PER_BYTE, key.labels());
      }
      if (s.expectedSpeedBitsPerSecond() != null) {
        f.gauge(
                EXPECTED_SPEED,
                "The speed the port should train at (expected_ports), in bytes per second: an NPU's"
                    + " own port, held to its product's row.",
                null)
            .add(s.expectedSpeedBitsPerSecond() / BITS_PER_BYTE, key.labels());
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
      if (p.linkUps() != null) {
        ups.put(key, p.linkUps());
      }
      p.errors().forEach((kind, n) -> errors.put(new ErrorKey(key, kind), n));
      if (p.health() != null) {
        java.util.Set<String> known = new java.util.LinkedHashSet<>(NetHealth.STATES);
        known.add(p.health()); // a state no driver listed is still shown, as printed
        for (String state : known) {
          health.add(
              state.equals(p.health()) ? 1 : 0,
              MetricFamilies.withLabel(key.labels(), "state", NetHealth.label(state)));
        }
      }
      Optics o = p.optics();
      if (o != null) {
        if (o.temperatureCelsius() != null) {
          temperature.add(o.temperatureCelsius(), key.labels());
        }
        if (o.supplyVolts() != null) {
          supply.add(o.supplyVolts(), key.labels());
        }
        o.txPowerWatts().forEach((lane, v) -> txPower.add(v, key.lane(lane)));
        o.rxPowerWatts().forEach((lane, v) -> rxPower.add(v, key.lane(lane)));
        o.biasAmperes().forEach((lane, v) -> bias.add(v, key.lane(lane)));
        o.hostSnrDecibels()
            .forEach(
                (lane, v) -> snr.add(v, MetricFamilies.withLabel(key.lane(lane), "side", "host")));
        o.mediaSnrDecibels()
            .forEach(
                (lane, v) -> snr.add(v, MetricFamilies.withLabel(key.lane(lane), "side", "media")));
      }
      String[] info = key.labels();
      info = MetricFamilies.withLabel(info, "source", s.source().id());
      info = MetricFamilies.withLabel(info, "link_layer", orEmpty(p.linkLayer()));
      info = MetricFamilies.withLabel(info, "state", orEmpty(p.state()));
      info = MetricFamilies.withLabel(info, "phys_state", orEmpty(p.physState()));
      info = MetricFamilies.withLabel(info, "netdev", orEmpty(p.netdev()));
      if (p.address() != null) {
        info = MetricFamilies.withLabel(info, "address", p.address());
      }
      if (p.neighbour() != null) {
        info = MetricFamilies.withLabel(info, "lldp_system", orEmpty(p.neighbour().system()));
        info = MetricFamilies.withLabel(info, "lldp_port", orEmpty(p.neighbour().port()));
      }
      f.info(
          INFO,
          "The port's source, link layer, states and network interface; for an NPU's port its IP"
              + " address and the switch and switch port at the far end (LLDP).",
          info);
    }
    f.counter(
        TRANSMIT,
        "Bytes the port sent (sysfs port_xmit_data x 4; hccn_tool nic_tx_all_oct).",
        tx,
        PortKey::labels);
    f.counter(
        RECEIVE,
        "Bytes the port received (sysfs port_rcv_data x 4; hccn_tool nic_rx_all_oct).",
        rx,
        PortKey::labels);
    f.counter(
        LINK_DOWNED,
        "How often the port's link went down (sysfs link_downed, 8 bits: stops at 255).",
        downed,
        PortKey::labels);
    f.counter(
        LINK_UPS,
        "How often the port's link came up (hccn_tool -link_stat's link up count): a rise is a"
            + " flap.",
        ups,
        PortKey::labels);
    f.counter(
        ERRORS,
        "Port errors by kind, the source's counter name: symbol_error, link_error_recovery,"
            + " port_rcv_errors, ... and the RoCE counters (out_of_sequence, local_ack_timeout_err,"
            + " ...) from sysfs; mac_rx_fcs_err_pkt, roce_rx_err_pkt, roce_new_pkt_rty,"
            + " roce_qp_status_err, ... from hccn_tool.",
        errors,
        k -> MetricFamilies.withLabel(k.port().labels(), "kind", k.kind()));
  }

  /**
   * Each count row of the expected-ports table this host's products match: how many ports of the
   * reader should be up at the row's speed, and how many are.
   */
  static void writeCounts(List<PortExpectations.PortCount> counts, MetricFamilies f) {
    if (counts.isEmpty()) {
      return;
    }
    MetricFamilies.Gauge expected =
        f.gauge(
            EXPECTED_PORTS,
            "How many ports of the source this host's product should have up at"
                + " linkwatch_nic_expected_port_speed_bytes_per_second or faster (expected_ports).",
            null);
    MetricFamilies.Gauge speed =
        f.gauge(
            EXPECTED_PORT_SPEED,
            "The speed the expected ports should train at, in bytes per second.",
            null);
    MetricFamilies.Gauge atSpeed =
        f.gauge(
            PORTS_AT_SPEED,
            "How many ports of the source are up at the expected speed or faster now.",
            null);
    for (PortExpectations.PortCount c : counts) {
      String[] labels = {"source", c.reader().id()};
      expected.add(c.count(), labels);
      speed.add(c.speedBitsPerSecond() / BITS_PER_BYTE, labels);
      atSpeed.add(c.atSpeed(), labels);
    }
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
