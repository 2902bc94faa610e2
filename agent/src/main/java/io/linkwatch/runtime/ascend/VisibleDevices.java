package io.linkwatch.runtime.ascend;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code ASCEND_RT_VISIBLE_DEVICES}: the host's devices an AscendCL process sees, renumbered from
 * 0. DCMI and npu-smi do not apply it (env_vars/ASCEND_RT_VISIBLE_DEVICES.md), so a device the
 * runtime calls 0 must be asked about there under its host number. The list is read as the runtime
 * reads it: ids up to the first character that does not belong to a comma-separated list, ascending
 * only; the runtime also stops at an id the host lacks, which taking as many ids as it reports
 * devices accounts for.
 */
public final class VisibleDevices {
  public static final String VARIABLE = "ASCEND_RT_VISIBLE_DEVICES";

  private final List<Integer> hostIds;

  private VisibleDevices(List<Integer> hostIds) {
    this.hostIds = hostIds;
  }

  /** From the variable's value; empty when it is not set (every device under its own number). */
  public static Optional<VisibleDevices> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    List<Integer> ids = new ArrayList<>();
    int last = -1;
    for (String item : value.split(",", -1)) {
      if (item.isEmpty()
          || !item.chars().allMatch(c -> c >= '0' && c <= '9')
          || item.length() > 9) {
        break;
      }
      int id = Integer.parseInt(item);
      if (id <= last) {
        break;
      }
      ids.add(id);
      last = id;
    }
    return Optional.of(new VisibleDevices(List.copyOf(ids)));
  }

  /** From this process's environment. */
  public static Optional<VisibleDevices> fromEnvironment() {
    return parse(System.getenv(VARIABLE));
  }

  /**
   * The host's number of the runtime's device {@code device}.
   *
   * @throws IllegalArgumentException when the list does not reach that far
   */
  public int hostId(int device) {
    if (device < 0 || device >= hostIds.size()) {
      throw new IllegalArgumentException(
          VARIABLE + " lists " + hostIds + ", which has no device " + device);
    }
    return hostIds.get(device);
  }

  public List<Integer> hostIds() {
    return hostIds;
  }
}
