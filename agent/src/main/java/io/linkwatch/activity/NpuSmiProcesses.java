package io.linkwatch.activity;

import io.linkwatch.runtime.DeviceProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The process table at the end of {@code npu-smi info}: who holds each chip, with device memory in
 * MB. An NPU shows either rows or a "No running processes found in NPU n" line; a chip of a listed
 * NPU without rows holds no process. An NPU the table does not mention is unknown.
 *
 * <pre>
 * | NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
 * +===========================+===============+====================================================+
 * | 0       0                 | 3325989       |                          | 50128                   |
 * +===========================+===============+====================================================+
 * | No running processes found in NPU 2                                                            |
 * </pre>
 *
 * Newer releases add a "Process id in container" column; it is not read.
 */
public final class NpuSmiProcesses {
  private static final Pattern ROW =
      Pattern.compile(
          "^\\|\\s*(\\d+)\\s+(\\d+)\\s*\\|\\s*(\\d+)\\s*\\|[^|]*\\|\\s*(\\d+)\\s*\\|.*$");
  private static final Pattern NONE =
      Pattern.compile("No running processes found in NPU\\s+(\\d+)");
  private static final long MIB = 1L << 20;

  private final Map<NpuSmiChip, List<DeviceProcess>> byChip;
  private final Set<Integer> npus;

  private NpuSmiProcesses(Map<NpuSmiChip, List<DeviceProcess>> byChip, Set<Integer> npus) {
    this.byChip = Map.copyOf(byChip);
    this.npus = Set.copyOf(npus);
  }

  /**
   * @throws IllegalArgumentException when the text has no process table
   */
  public static NpuSmiProcesses parse(String text) {
    List<String> lines = text.lines().toList();
    int header = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("Process id") && lines.get(i).contains("Process memory")) {
        header = i;
        break;
      }
    }
    if (header < 0) {
      throw new IllegalArgumentException("no process table (no 'Process id' header)");
    }
    if (!lines.get(header).contains("Process memory(MB)")) {
      throw new IllegalArgumentException(
          "process memory is not in MB: " + lines.get(header).strip());
    }
    Map<NpuSmiChip, List<DeviceProcess>> byChip = new HashMap<>();
    Set<Integer> npus = new HashSet<>();
    for (String line : lines.subList(header + 1, lines.size())) {
      Matcher none = NONE.matcher(line);
      if (none.find()) {
        npus.add(Integer.parseInt(none.group(1)));
        continue;
      }
      Matcher row = ROW.matcher(line.strip());
      if (row.matches()) {
        int npu = Integer.parseInt(row.group(1));
        NpuSmiChip chip = new NpuSmiChip(npu, Integer.parseInt(row.group(2)));
        npus.add(npu);
        byChip
            .computeIfAbsent(chip, c -> new ArrayList<>())
            .add(
                new DeviceProcess(
                    Long.parseLong(row.group(3)), Long.parseLong(row.group(4)) * MIB));
      }
    }
    return new NpuSmiProcesses(byChip, npus);
  }

  /** The processes holding {@code chip}, or empty when the table does not cover its NPU. */
  public Optional<List<DeviceProcess>> of(NpuSmiChip chip) {
    if (!npus.contains(chip.npu())) {
      return Optional.empty();
    }
    return Optional.of(byChip.getOrDefault(chip, List.of()));
  }
}
