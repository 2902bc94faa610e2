package io.linkwatch.probe;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A probe's own settings (sizes, iterations, targets); the schedule lives in the agent's config.
 * Settings travel to the worker process as JSON, tagged by {@code type}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(P2pSettings.class),
  @JsonSubTypes.Type(AllreduceSettings.class),
  @JsonSubTypes.Type(HostTransferSettings.class),
  @JsonSubTypes.Type(DeviceMemorySettings.class),
  @JsonSubTypes.Type(TopologySettings.class)
})
public sealed interface ProbeSettings
    permits P2pSettings,
        AllreduceSettings,
        HostTransferSettings,
        DeviceMemorySettings,
        TopologySettings {
  Probe newProbe();
}
