package io.linkwatch.activity;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The device map that {@code npu-smi info -m} prints: which NPU and chip each logical device is.
 * Columns are found by name (their set differs between releases: {@code NPU ID Chip ID Chip Logic
 * ID Chip Name}, some with {@code Chip Phy-ID}); rows without a logic id (the MCU, {@code -}) are
 * not devices.
 *
 * <pre>
 *         NPU ID                         Chip ID                        Chip Logic ID                  Chip Name
 *         0                              0                              0                              Ascend910_9382
 *         0                              1                              1                              Ascend910_9382
 * </pre>
 */
public final class NpuSmiDeviceMap {
  private final Map<Integer, NpuSmiChip> byLogicalId;

  private NpuSmiDeviceMap(Map<Integer, NpuSmiChip> byLogicalId) {
    this.byLogicalId = Map.copyOf(byLogicalId);
  }

  /**
   * @throws IllegalArgumentException when the text has no device map
   */
  public static NpuSmiDeviceMap parse(String text) {
    List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
    int header = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("Chip Logic ID")) {
        header = i;
        break;
      }
    }
    if (header < 0) {
      throw new IllegalArgumentException("no 'Chip Logic ID' column");
    }
    List<String> names = List.of(lines.get(header).strip().split("\\s{2,}"));
    int npuCol = names.indexOf("NPU ID");
    int chipCol = names.indexOf("Chip ID");
    int logicCol = names.indexOf("Chip Logic ID");
    if (npuCol < 0 || chipCol < 0) {
      throw new IllegalArgumentException("no 'NPU ID' or 'Chip ID' column in " + names);
    }
    Map<Integer, NpuSmiChip> map = new HashMap<>();
    for (String line : lines.subList(header + 1, lines.size())) {
      String[] cells = line.strip().split("\\s{2,}");
      if (cells.length <= Math.max(npuCol, Math.max(chipCol, logicCol))) {
        continue;
      }
      Optional<Integer> npu = number(cells[npuCol]);
      Optional<Integer> chip = number(cells[chipCol]);
      Optional<Integer> logic = number(cells[logicCol]);
      if (npu.isPresent() && chip.isPresent() && logic.isPresent() && npu.get() >= 0) {
        map.put(logic.get(), new NpuSmiChip(npu.get(), chip.get()));
      }
    }
    if (map.isEmpty()) {
      throw new IllegalArgumentException("the device map lists no device");
    }
    return new NpuSmiDeviceMap(map);
  }

  private static Optional<Integer> number(String cell) {
    try {
      return Optional.of(Integer.parseInt(cell.strip()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  public Optional<NpuSmiChip> chip(int logicalDevice) {
    return Optional.ofNullable(byLogicalId.get(logicalDevice));
  }
}
