package io.linkwatch.passive.nic;

import java.util.List;
import java.util.Map;

/**
 * One port of a network adapter that carries collectives between servers, as one read found it: an
 * InfiniBand or RoCE port of an HCA (from sysfs) or an Ascend NPU's own RoCE port (from {@code
 * hccn_tool}), in one model. A value the source did not give is null (or empty).
 *
 * @param nic the adapter, e.g. {@code mlx5_0}, or {@code npu3} for an NPU's port
 * @param port its port number: from 1 on an HCA, 0 for an NPU's single port
 * @param linkLayer {@code InfiniBand} or {@code Ethernet} (RoCE)
 * @param state the logical state, e.g. {@code ACTIVE}, {@code DOWN}, {@code INIT}
 * @param physState the physical state, e.g. {@code LinkUp}, {@code Polling}, {@code Disabled}
 * @param rateBitsPerSecond the speed the port trained at, e.g. 400e9; null when not given
 * @param transmitBytes bytes sent; null without the counter
 * @param receiveBytes bytes received; null without the counter
 * @param linkDowned how often the link went down (sysfs: an 8-bit counter that saturates); null
 *     without
 * @param errors error counters by the source's name ({@code symbol_error}, {@code
 *     local_ack_timeout_err}, {@code roce_qp_status_err}, ...); those the adapter lacks or cannot
 *     read are absent
 * @param netdev the network interface behind the port (RoCE), or null
 * @param device the accelerator whose traffic the port carries (an NPU's logical number), or null
 *     when not known
 * @param linkUps how often the link came up ({@code hccn_tool -link_stat}'s link up count), or null
 * @param optics the optical module's readings, or null when the source gives none
 * @param health the device's own probe of its detect address ({@code net_health}: {@code Success},
 *     {@code Socket fail}, ...), or null
 * @param neighbour the switch and switch port at the far end (LLDP), or null
 * @param address the port's IP address, or null
 * @param unsupported the readings the source said it cannot give for this port
 */
public record NicPort(
    String nic,
    int port,
    String linkLayer,
    String state,
    String physState,
    Double rateBitsPerSecond,
    Long transmitBytes,
    Long receiveBytes,
    Long linkDowned,
    Map<String, Long> errors,
    String netdev,
    Integer device,
    Long linkUps,
    Optics optics,
    String health,
    Neighbour neighbour,
    String address,
    List<String> unsupported) {

  /** The logical state an active port reports. */
  public static final String ACTIVE = "ACTIVE";

  /** The switch and port an LLDP neighbour announced; either may be null. */
  public record Neighbour(String system, String port) {}

  public NicPort {
    errors = errors == null ? Map.of() : Map.copyOf(errors);
    unsupported = unsupported == null ? List.of() : List.copyOf(unsupported);
  }

  /** A port sysfs describes: none of what only the NPU's tool reports. */
  public NicPort(
      String nic,
      int port,
      String linkLayer,
      String state,
      String physState,
      Double rateBitsPerSecond,
      Long transmitBytes,
      Long receiveBytes,
      Long linkDowned,
      Map<String, Long> errors,
      String netdev) {
    this(
        nic,
        port,
        linkLayer,
        state,
        physState,
        rateBitsPerSecond,
        transmitBytes,
        receiveBytes,
        linkDowned,
        errors,
        netdev,
        null,
        null,
        null,
        null,
        null,
        null,
        List.of());
  }

  public boolean up() {
    return ACTIVE.equals(state);
  }

  /** The same reading, said to serve accelerator {@code served}. */
  public NicPort withDevice(Integer served) {
    return new NicPort(
        nic,
        port,
        linkLayer,
        state,
        physState,
        rateBitsPerSecond,
        transmitBytes,
        receiveBytes,
        linkDowned,
        errors,
        netdev,
        served,
        linkUps,
        optics,
        health,
        neighbour,
        address,
        unsupported);
  }

  /** {@code mlx5_0 port 1}, as findings and logs name it. */
  public String name() {
    return nic + " port " + port;
  }
}
