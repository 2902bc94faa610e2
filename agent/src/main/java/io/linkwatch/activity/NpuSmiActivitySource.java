package io.linkwatch.activity;

import io.linkwatch.process.ExternalCommand;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.DeviceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Processes per device from the {@code npu-smi} command, for hosts where DCMI cannot be used by
 * linkwatch: {@code npu-smi info -m} once, to learn which NPU and chip each logical device is, then
 * {@code npu-smi info} at each reading. Memory comes in whole MB.
 */
public final class NpuSmiActivitySource {
  private final String program;
  private final Duration timeout;
  private final IntUnaryOperator hostId;
  private NpuSmiDeviceMap map;

  /**
   * @param program the npu-smi executable, e.g. {@code npu-smi} or {@code /usr/local/bin/npu-smi}
   * @param hostId the host's number of a runtime device, which npu-smi's logic ids are
   */
  public NpuSmiActivitySource(String program, Duration timeout, IntUnaryOperator hostId) {
    this.program = program;
    this.timeout = timeout;
    this.hostId = hostId;
  }

  /**
   * The processes holding {@code device}.
   *
   * @throws IllegalStateException with the reason when npu-smi cannot tell
   */
  public List<DeviceProcess> processes(int device) {
    int logic = hostId.applyAsInt(device);
    NpuSmiChip chip =
        map()
            .chip(logic)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "'" + program + " info -m' does not list logical device " + logic));
    NpuSmiProcesses table;
    try {
      table = NpuSmiProcesses.parse(run("info"));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("cannot parse '" + program + " info': " + e.getMessage(), e);
    }
    return table
        .of(chip)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "'" + program + " info' does not show NPU " + chip.npu()));
  }

  private synchronized NpuSmiDeviceMap map() {
    if (map == null) {
      try {
        map = NpuSmiDeviceMap.parse(run("info", "-m"));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(
            "cannot parse '" + program + " info -m': " + e.getMessage(), e);
      }
    }
    return map;
  }

  private String run(String... args) {
    List<String> command = new ArrayList<>(List.of(program));
    command.addAll(List.of(args));
    ExternalCommand cmd = new ExternalCommand(command, timeout);
    ExternalCommand.Result r;
    try {
      r = cmd.run();
    } catch (ExternalCommand.Failed e) {
      String reason = "'" + cmd.name() + "': " + e.getMessage();
      if (e.notStarted()) {
        // Not installed here: asking again in this process cannot help.
        throw new BackendUnavailableException(reason, e);
      }
      throw new IllegalStateException(reason);
    }
    if (r.status() != 0) {
      String detail = r.firstLine();
      throw new IllegalStateException(
          "'"
              + cmd.name()
              + "' exited with status "
              + r.status()
              + (detail.isEmpty() ? "" : ": " + detail));
    }
    return r.stdout();
  }
}
