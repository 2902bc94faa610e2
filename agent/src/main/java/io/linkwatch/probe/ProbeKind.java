package io.linkwatch.probe;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The one list of probes. Config keys ({@code probes.p2p}), CLI names ({@code probe p2p}) and the
 * {@code probe} label of every health series derive from it.
 */
public enum ProbeKind {
  P2P(P2pSettings.DEFAULTS, "5m", "copy bandwidth for every ordered device pair"),
  ALLREDUCE(AllreduceSettings.DEFAULTS, "5m", "HCCL allreduce latency and bus bandwidth"),
  DEVICE_MEMORY(DeviceMemorySettings.DEFAULTS, "10m", "device-local copy bandwidth per device"),
  TOPOLOGY(TopologySettings.DEFAULTS, "1h", "link type of every device pair, device inventory"),
  HOST_TRANSFER(
      HostTransferSettings.DEFAULTS,
      "10m",
      "H2D and D2H bandwidth, pinned and pageable, per device and NUMA node");

  private final ProbeSettings defaults;
  private final String defaultInterval;
  private final String description;

  ProbeKind(ProbeSettings defaults, String defaultInterval, String description) {
    this.defaults = defaults;
    this.defaultInterval = defaultInterval;
    this.description = description;
  }

  /** The config key and metric label, e.g. {@code host_transfer}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The CLI name, e.g. {@code host-transfer}. */
  public String cliName() {
    return id().replace('_', '-');
  }

  public ProbeSettings defaults() {
    return defaults;
  }

  public String defaultInterval() {
    return defaultInterval;
  }

  public String description() {
    return description;
  }

  public static Optional<ProbeKind> byId(String id) {
    return Arrays.stream(values()).filter(k -> k.id().equals(id)).findFirst();
  }
}
