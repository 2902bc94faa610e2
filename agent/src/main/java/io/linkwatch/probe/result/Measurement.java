package io.linkwatch.probe.result;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One figure a probe measured or found, in base units. Probes produce these; the metrics layer
 * turns each kind into series. They cross the worker boundary as JSON, tagged by {@code type}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(P2pBandwidth.class),
  @JsonSubTypes.Type(AllreduceLatency.class),
  @JsonSubTypes.Type(AllreduceBusBandwidth.class),
  @JsonSubTypes.Type(HostTransferBandwidth.class),
  @JsonSubTypes.Type(HostBufferPages.class),
  @JsonSubTypes.Type(DeviceMemoryBandwidth.class),
  @JsonSubTypes.Type(LinkInfo.class),
  @JsonSubTypes.Type(DeviceInfo.class)
})
public sealed interface Measurement
    permits P2pBandwidth,
        AllreduceLatency,
        AllreduceBusBandwidth,
        HostTransferBandwidth,
        HostBufferPages,
        DeviceMemoryBandwidth,
        LinkInfo,
        DeviceInfo {

  /** The figure for a log line, e.g. {@code 0->1 256MiB 155.1GB/s}. */
  String summary();
}
