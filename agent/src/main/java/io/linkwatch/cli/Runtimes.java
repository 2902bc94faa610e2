package io.linkwatch.cli;

import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.DeviceLogFlush;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import io.linkwatch.runtime.topology.CommandTopologySource;
import io.linkwatch.runtime.topology.FallbackTopologySource;
import io.linkwatch.runtime.topology.TopologySource;
import java.util.List;

/** Opens the device runtime and the topology lookup for the one-shot commands. */
final class Runtimes {
  private Runtimes() {}

  static DeviceRuntime open(Backend backend) {
    // A one-shot command would otherwise wait at exit for device logs nobody reads here.
    DeviceLogFlush.skipInThisProcessUnlessSet();
    return DeviceRuntimes.open(backend);
  }

  static TopologySource topologySource() {
    return FallbackTopologySource.standard(CommandTopologySource.DEFAULT_TIMEOUT);
  }

  /**
   * {@code aclrtGetDevicesTopo}, then {@code command} (as {@code --topology-command} gives it:
   * words split on whitespace, run without a shell); null means {@code npu-smi info -t topo}.
   */
  static TopologySource topologySource(String command) {
    if (command == null) {
      return topologySource();
    }
    if (command.isBlank()) {
      throw new UsageException("--topology-command must not be empty");
    }
    List<String> words = List.of(command.strip().split("\\s+"));
    return FallbackTopologySource.standard(words, CommandTopologySource.DEFAULT_TIMEOUT);
  }
}
