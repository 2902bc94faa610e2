package io.linkwatch.registry;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.collective.AllgatherBusBandwidth;
import io.linkwatch.probe.collective.AllgatherLatency;
import io.linkwatch.probe.collective.AllgatherMetrics;
import io.linkwatch.probe.collective.AllgatherProbe;
import io.linkwatch.probe.collective.AllgatherSettings;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.probe.collective.AllreduceMetrics;
import io.linkwatch.probe.collective.AllreduceProbe;
import io.linkwatch.probe.collective.AllreduceSettings;
import io.linkwatch.probe.collective.CollectiveTable;
import io.linkwatch.probe.devicememory.DeviceMemoryBandwidth;
import io.linkwatch.probe.devicememory.DeviceMemoryMetrics;
import io.linkwatch.probe.devicememory.DeviceMemoryProbe;
import io.linkwatch.probe.devicememory.DeviceMemorySettings;
import io.linkwatch.probe.devicememory.DeviceMemoryTable;
import io.linkwatch.probe.hosttransfer.HostBufferPages;
import io.linkwatch.probe.hosttransfer.HostTransferBandwidth;
import io.linkwatch.probe.hosttransfer.HostTransferMetrics;
import io.linkwatch.probe.hosttransfer.HostTransferProbe;
import io.linkwatch.probe.hosttransfer.HostTransferSettings;
import io.linkwatch.probe.hosttransfer.HostTransferTable;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.p2p.P2pBidirectionalBandwidth;
import io.linkwatch.probe.p2p.P2pBidirectionalMetrics;
import io.linkwatch.probe.p2p.P2pBidirectionalProbe;
import io.linkwatch.probe.p2p.P2pBidirectionalSettings;
import io.linkwatch.probe.p2p.P2pBidirectionalTable;
import io.linkwatch.probe.p2p.P2pMetrics;
import io.linkwatch.probe.p2p.P2pProbe;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.probe.p2p.P2pTable;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LinkInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.topology.TopologyMetrics;
import io.linkwatch.probe.topology.TopologyProbe;
import io.linkwatch.probe.topology.TopologySettings;
import io.linkwatch.probe.topology.TopologyTable;
import io.linkwatch.util.Json;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one list of probes, and each probe's registration: config keys ({@code probes.p2p}), CLI
 * commands ({@code probe p2p}), the JSON types that cross the worker boundary, the metric writers
 * and the {@code probe} label of every health series all derive from the descriptors here. Adding a
 * probe is adding a constant (docs/adding-a-probe.md).
 */
public enum ProbeKind {
  P2P(
      new ProbeDescriptor<>(
          P2pProbe.ID,
          "5m",
          "copy bandwidth for every ordered device pair",
          P2pSettings.class,
          P2pSettings.DEFAULTS,
          P2pSettings::read,
          P2pSettings.OPTIONS,
          List.of(
              ResultType.of(P2pBandwidth.class, P2pMetrics.WRITER)
                  .inMatrix("Device to device (p2p), GB/s")),
          new P2pTable())),
  P2P_BIDIRECTIONAL(
      new ProbeDescriptor<>(
          P2pBidirectionalProbe.ID,
          "10m",
          "copy bandwidth of both directions of each device pair at once",
          P2pBidirectionalSettings.class,
          P2pBidirectionalSettings.DEFAULTS,
          P2pBidirectionalSettings::read,
          P2pBidirectionalSettings.OPTIONS,
          List.of(
              ResultType.of(P2pBidirectionalBandwidth.class, P2pBidirectionalMetrics.WRITER)
                  .inMatrix("Both directions at once (p2p_bidirectional), GB/s per pair")),
          new P2pBidirectionalTable())),
  ALLREDUCE(
      new ProbeDescriptor<>(
          AllreduceProbe.ID,
          "5m",
          "allreduce latency and bus bandwidth (HCCL on Ascend, NCCL on NVIDIA)",
          AllreduceSettings.class,
          AllreduceSettings.DEFAULTS,
          AllreduceSettings::read,
          AllreduceSettings.OPTIONS,
          List.of(
              ResultType.of(AllreduceLatency.class, AllreduceMetrics.LATENCY_WRITER),
              ResultType.of(AllreduceBusBandwidth.class, AllreduceMetrics.BUS_BANDWIDTH_WRITER)),
          new CollectiveTable<>(AllreduceSettings::sizes, "fp16 sum, busbw = algbw*2(n-1)/n"))),
  ALLGATHER(
      new ProbeDescriptor<>(
          AllgatherProbe.ID,
          "5m",
          "allgather latency and bus bandwidth (HCCL on Ascend, NCCL on NVIDIA)",
          AllgatherSettings.class,
          AllgatherSettings.DEFAULTS,
          AllgatherSettings::read,
          AllgatherSettings.OPTIONS,
          List.of(
              ResultType.of(AllgatherLatency.class, AllgatherMetrics.LATENCY_WRITER),
              ResultType.of(AllgatherBusBandwidth.class, AllgatherMetrics.BUS_BANDWIDTH_WRITER)),
          new CollectiveTable<>(
              AllgatherSettings::sizes, "fp16, size = gathered total, busbw = algbw*(n-1)/n"))),
  DEVICE_MEMORY(
      new ProbeDescriptor<>(
          DeviceMemoryProbe.ID,
          "10m",
          "device-local copy bandwidth per device",
          DeviceMemorySettings.class,
          DeviceMemorySettings.DEFAULTS,
          DeviceMemorySettings::read,
          DeviceMemorySettings.OPTIONS,
          List.of(ResultType.of(DeviceMemoryBandwidth.class, DeviceMemoryMetrics.WRITER)),
          new DeviceMemoryTable())),
  TOPOLOGY(
      new ProbeDescriptor<>(
          TopologyProbe.ID,
          "1h",
          "link type of every device pair, device inventory",
          TopologySettings.class,
          TopologySettings.DEFAULTS,
          source -> TopologySettings.DEFAULTS,
          List.of(),
          List.of(
              ResultType.of(LinkInfo.class, TopologyMetrics.LINK_WRITER),
              ResultType.of(DeviceInfo.class, TopologyMetrics.DEVICE_WRITER)),
          new TopologyTable())),
  HOST_TRANSFER(
      new ProbeDescriptor<>(
          HostTransferProbe.ID,
          "10m",
          "H2D and D2H bandwidth, pinned and pageable, per device and NUMA node",
          HostTransferSettings.class,
          HostTransferSettings.DEFAULTS,
          HostTransferSettings::read,
          HostTransferSettings.OPTIONS,
          List.of(
              ResultType.of(HostTransferBandwidth.class, HostTransferMetrics.BANDWIDTH_WRITER),
              ResultType.of(HostBufferPages.class, HostTransferMetrics.PAGES_WRITER)),
          new HostTransferTable()));

  private final ProbeDescriptor<?> descriptor;

  ProbeKind(ProbeDescriptor<?> descriptor) {
    this.descriptor = descriptor;
    if (!descriptor.id().equals(name().toLowerCase(Locale.ROOT))) {
      throw new IllegalStateException(
          name() + "'s probe calls itself " + descriptor.id() + "; the two must match");
    }
  }

  public ProbeDescriptor<?> descriptor() {
    return descriptor;
  }

  /** The config key and metric label, e.g. {@code host_transfer}. */
  public String id() {
    return descriptor.id();
  }

  /**
   * Whether this probe's figures include the device inventory (each device's product, {@link
   * DeviceInfo}), without which no figure can be matched to its product's expected row.
   */
  public boolean takesInventory() {
    return descriptor.results().stream().anyMatch(r -> r.type() == DeviceInfo.class);
  }

  /**
   * The probes whose figures expected-figure rows judge: the bandwidths first, then the latencies,
   * each in the order of this list.
   */
  public static List<ProbeKind> judged() {
    return Arrays.stream(values())
        .filter(k -> k.descriptor.judged())
        .sorted(java.util.Comparator.comparing(k -> k.descriptor.judgedAsLatency()))
        .toList();
  }

  /** The probe an expected-figure row judges when it names none: the pair copy, as most rows do. */
  public static ProbeKind defaultJudged() {
    return P2P;
  }

  /** A device-pair matrix of the status page: the probe whose figures fill it, and its title. */
  public record PairMatrix(String probe, String title) {}

  /** The status page's device-pair matrices, in the order of this list. */
  public static List<PairMatrix> pairMatrices() {
    return Arrays.stream(values())
        .flatMap(
            k ->
                k.descriptor.results().stream()
                    .filter(r -> r.matrixTitle() != null)
                    .map(r -> new PairMatrix(k.id(), r.matrixTitle())))
        .toList();
  }

  /** The CLI name, e.g. {@code host-transfer}. */
  public String cliName() {
    return id().replace('_', '-');
  }

  public ProbeSettings defaults() {
    return descriptor.defaults();
  }

  public String defaultInterval() {
    return descriptor.defaultInterval();
  }

  public String description() {
    return descriptor.description();
  }

  public static Optional<ProbeKind> byId(String id) {
    return Arrays.stream(values()).filter(k -> k.id().equals(id)).findFirst();
  }

  /**
   * The two-host allreduce's id ({@code peer_allreduce}): its {@code probe} label and its families'
   * prefix. No key under {@code probes:} names it; {@code peers.collective} runs it.
   */
  public static final String PEER_ALLREDUCE = io.linkwatch.probe.collective.PeerAllreduceProbe.ID;

  /** The two-host point to point's id ({@code peer_p2p}), run as {@link #PEER_ALLREDUCE} is. */
  public static final String PEER_P2P = io.linkwatch.probe.collective.PeerP2pProbe.ID;

  /** The two-host probes, in the order one pair's runs take them. */
  public static final List<String> PEER_PROBES =
      io.linkwatch.probe.collective.PeerPairSettings.PROBES;

  /**
   * The settings of a two-host probe's side that holds rank 0: it makes the group's blob and writes
   * it, base64, to {@code rootInfoFile}.
   *
   * @throws IllegalArgumentException when {@code probe} is not a two-host probe or the ranks do not
   *     fit it
   */
  public static ProbeSettings peerRoot(
      String probe,
      List<Long> sizes,
      int warmup,
      int iterations,
      List<Integer> devices,
      int ranks,
      String rootInfoFile) {
    return io.linkwatch.probe.collective.PeerPairSettings.root(
        probe, sizes, warmup, iterations, devices, ranks, rootInfoFile);
  }

  /**
   * The settings of a two-host probe's other side: ranks {@code firstRank} on, joined with the blob
   * the root side made.
   *
   * @throws IllegalArgumentException when the probe is unknown, the ranks do not fit or the blob is
   *     missing
   */
  public static ProbeSettings peerJoining(
      String probe,
      List<Long> sizes,
      int warmup,
      int iterations,
      List<Integer> devices,
      int ranks,
      int firstRank,
      String rootInfo) {
    return new io.linkwatch.probe.collective.PeerPairSettings(
        probe, sizes, warmup, iterations, devices, ranks, firstRank, rootInfo, "");
  }

  /** A message size of the collectives' fp16 elements (a whole number of 2-byte elements). */
  public static long fp16MessageSize(String text) {
    return io.linkwatch.probe.collective.AllreduceSettings.fp16MessageSize(text);
  }

  /** Measurement and settings types by JSON type id (the simple class name), from every probe. */
  static final Map<String, Class<?>> JSON_TYPES = jsonTypes();

  /** The measurement or settings type of a JSON type id, e.g. {@code P2pBandwidth}. */
  public static Optional<Class<?>> jsonType(String id) {
    return Optional.ofNullable(JSON_TYPES.get(id));
  }

  /**
   * The JSON codec that knows every probe's settings and measurement types: what crosses the worker
   * boundary, and the CLI's {@code --json} output.
   */
  public static final Json JSON =
      Json.tagging(Set.of(ProbeSettings.class, Measurement.class), JSON_TYPES);

  /**
   * The same types in the JSON style of what people and programs read ({@code probe --json}, {@code
   * topo --json}): snake_case fields, lower-case enum values, {@code schema_version} first.
   */
  public static final Json USER_JSON =
      Json.snakeCase(Set.of(ProbeSettings.class, Measurement.class), JSON_TYPES);

  /**
   * The version of the user-facing JSON documents' shape; raised when a field is renamed or removed
   * (added fields keep it). 1: snake_case fields and lower-case enum values.
   */
  public static final int JSON_SCHEMA_VERSION = 1;

  private static final Map<Class<?>, ResultType<?>> RESULT_TYPES = resultTypes();

  private static Map<String, Class<?>> jsonTypes() {
    Map<String, Class<?>> types = new HashMap<>();
    for (ProbeKind k : values()) {
      register(types, k.descriptor.settingsType());
      k.descriptor.measurementTypes().forEach(t -> register(types, t));
    }
    // Settings a worker runs that no config key or command names: the agent writes them itself
    // for one run (the two-host probes, from peers.collective and the lease). The allreduce's
    // figures are the in-host probe's records; the point to point's are its own.
    register(types, io.linkwatch.probe.collective.PeerPairSettings.class);
    register(types, io.linkwatch.probe.result.PeerP2pBandwidth.class);
    return Map.copyOf(types);
  }

  private static void register(Map<String, Class<?>> types, Class<?> type) {
    Class<?> before = types.put(type.getSimpleName(), type);
    if (before != null && before != type) {
      throw new IllegalStateException(
          "two probe types are called " + type.getSimpleName() + ": " + before + ", " + type);
    }
  }

  private static Map<Class<?>, ResultType<?>> resultTypes() {
    Map<Class<?>, ResultType<?>> writers = new HashMap<>();
    for (ProbeKind k : values()) {
      k.descriptor.results().forEach(r -> writers.put(r.type(), r));
    }
    return Map.copyOf(writers);
  }

  /**
   * Writes {@code m}'s series with the writer its probe registered. A type no probe registered
   * cannot get here: it could not have crossed the worker boundary as JSON.
   */
  public static void write(Measurement m, MetricFamilies families) {
    ResultType<?> type = RESULT_TYPES.get(m.getClass());
    if (type == null) {
      throw new IllegalStateException(m.getClass().getName() + " has no metric writer");
    }
    type.write(m, families);
  }

  /** Whether some probe registered a writer for {@code type}. */
  public static boolean hasWriter(Class<? extends Measurement> type) {
    return RESULT_TYPES.containsKey(type);
  }
}
