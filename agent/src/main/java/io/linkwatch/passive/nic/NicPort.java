package io.linkwatch.passive.nic;

import java.util.Map;

/**
 * One port of a network adapter that carries collectives between servers, as one read found it.
 * InfiniBand and RoCE ports of an HCA both appear here; a value the adapter did not give is null.
 *
 * @param nic the adapter, e.g. {@code mlx5_0}
 * @param port its port number, from 1
 * @param linkLayer {@code InfiniBand} or {@code Ethernet} (RoCE)
 * @param state the logical state, e.g. {@code ACTIVE}, {@code DOWN}, {@code INIT}
 * @param physState the physical state, e.g. {@code LinkUp}, {@code Polling}, {@code Disabled}
 * @param rateBitsPerSecond the speed the port trained at, e.g. 400e9; null when not given
 * @param transmitBytes bytes sent (sysfs counts 4-octet words); null without the counter
 * @param receiveBytes bytes received; null without the counter
 * @param linkDowned how often the link went down (an 8-bit counter that saturates); null without
 * @param errors error counters by their sysfs name ({@code symbol_error}, {@code
 *     local_ack_timeout_err}, ...); those the adapter lacks or cannot read are absent
 * @param netdev the network interface behind the port (RoCE), or null
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
    String netdev) {

  /** The logical state an active port reports. */
  public static final String ACTIVE = "ACTIVE";

  public NicPort {
    errors = errors == null ? Map.of() : Map.copyOf(errors);
  }

  public boolean up() {
    return ACTIVE.equals(state);
  }

  /** {@code mlx5_0 port 1}, as findings and logs name it. */
  public String name() {
    return nic + " port " + port;
  }
}
