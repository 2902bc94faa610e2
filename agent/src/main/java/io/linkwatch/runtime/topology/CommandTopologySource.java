package io.linkwatch.runtime.topology;

import io.linkwatch.process.ExternalCommand;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topology from {@code npu-smi info -t topo} (or another command that prints the same table). The
 * command runs directly, without a shell. A missing command, a non-zero exit, no answer within the
 * timeout, output that does not parse, a device that does not support the query, or a table whose
 * devices do not line up with the runtime's all give {@link Topology#NONE} and one warning line.
 */
public final class CommandTopologySource implements TopologySource {
  public static final List<String> DEFAULT_COMMAND = List.of("npu-smi", "info", "-t", "topo");
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(CommandTopologySource.class);

  private final ExternalCommand command;

  /** {@code npu-smi info -t topo} with a 10 s timeout. */
  public CommandTopologySource() {
    this(DEFAULT_COMMAND, DEFAULT_TIMEOUT);
  }

  /**
   * @throws IllegalArgumentException for an empty command or a timeout that is not positive
   */
  public CommandTopologySource(List<String> command, Duration timeout) {
    this.command = new ExternalCommand(command, timeout);
  }

  public List<String> command() {
    return command.command();
  }

  public Duration timeout() {
    return command.timeout();
  }

  /**
   * Runs the command and parses its output. When {@code runtime} is given and can count its
   * devices, the table must describe exactly logical devices {@code 0..count-1}; otherwise (for
   * instance npu-smi shows the whole host while ASCEND_RT_VISIBLE_DEVICES narrows the runtime) the
   * ids would name the wrong devices, so the answer is {@link Topology#NONE}. A null runtime skips
   * that check.
   */
  @Override
  public boolean appliesTo(DeviceRuntime runtime) {
    return runtime.backend().vendor() == Backend.Vendor.ASCEND;
  }

  @Override
  public Topology load(DeviceRuntime runtime) {
    String stdout;
    try {
      stdout = run();
    } catch (CommandFailed e) {
      return fail(e.getMessage());
    }
    NpuSmiTopology parsed;
    try {
      parsed = NpuSmiTopology.parse(stdout);
    } catch (NpuSmiTopologyException e) {
      return fail("cannot parse its output: " + e.getMessage());
    }
    if (parsed.unsupported()) {
      return fail("the device does not support querying topo");
    }
    if (runtime != null) {
      Integer count = deviceCount(runtime);
      if (count != null && !parsed.logicalIdSet().equals(range(count))) {
        return fail(
            "it shows devices "
                + parsed.labels()
                + " but the runtime sees "
                + count
                + " device(s); the ids would not line up");
      }
    }
    String name = command.name();
    for (String warning : parsed.warnings()) {
      log.warn("Topology from '{}': {}", name, warning);
    }
    return parsed.toTopology();
  }

  private static Integer deviceCount(DeviceRuntime runtime) {
    try {
      return runtime.deviceCount();
    } catch (DeviceException e) {
      return null;
    }
  }

  private static Set<Integer> range(int count) {
    Set<Integer> ids = new HashSet<>();
    for (int i = 0; i < count; i++) {
      ids.add(i);
    }
    return ids;
  }

  private Topology fail(String reason) {
    log.warn("No topology from '{}': {}; links will be labelled unknown", command.name(), reason);
    return Topology.NONE;
  }

  private String run() throws CommandFailed {
    ExternalCommand.Result result;
    try {
      result = command.run();
    } catch (ExternalCommand.Failed e) {
      throw new CommandFailed(e.getMessage());
    }
    if (result.status() != 0) {
      if (result.stdout().contains("does not support querying topo")) {
        throw new CommandFailed("the device does not support querying topo");
      }
      String detail = result.firstLine();
      throw new CommandFailed(
          "exit status " + result.status() + (detail.isEmpty() ? "" : ": " + detail));
    }
    return result.stdout();
  }

  @Override
  public String toString() {
    return "CommandTopologySource" + command.command();
  }

  /** Why the command gave no usable output; the message is the reason that gets logged. */
  private static final class CommandFailed extends Exception {
    private static final long serialVersionUID = 1L;

    CommandFailed(String reason) {
      super(reason, null, false, false);
    }
  }
}
