package io.linkwatch.runtime.topology;

import io.linkwatch.runtime.DeviceRuntime;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks several sources in order and answers with the first topology that has links; {@link
 * Topology#NONE} when none has. A source that throws (against the {@link TopologySource} contract)
 * is logged and skipped.
 */
public final class FallbackTopologySource implements TopologySource {
  private static final Logger log = LoggerFactory.getLogger(FallbackTopologySource.class);

  private final List<TopologySource> sources;

  public FallbackTopologySource(List<TopologySource> sources) {
    this.sources = List.copyOf(sources);
  }

  public FallbackTopologySource(TopologySource... sources) {
    this(List.of(sources));
  }

  /** {@code aclrtGetDevicesTopo} first, then {@code npu-smi info -t topo}. */
  public static FallbackTopologySource standard(Duration commandTimeout) {
    return standard(CommandTopologySource.DEFAULT_COMMAND, commandTimeout);
  }

  /** {@code aclrtGetDevicesTopo} first, then the configured topology command. */
  public static FallbackTopologySource standard(List<String> command, Duration commandTimeout) {
    return new FallbackTopologySource(
        new RuntimeTopologySource(), new CommandTopologySource(command, commandTimeout));
  }

  public List<TopologySource> sources() {
    return sources;
  }

  @Override
  public Topology load(DeviceRuntime runtime) {
    for (TopologySource source : sources) {
      if (!source.appliesTo(runtime)) {
        continue;
      }
      Topology topology;
      try {
        topology = source.load(runtime);
      } catch (RuntimeException e) {
        log.warn("Topology source {} failed: {}", source, e.toString());
        continue;
      }
      if (topology != null && !topology.links().isEmpty()) {
        return topology;
      }
    }
    return Topology.NONE;
  }
}
