package io.linkwatch.kubelet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds which of linkwatch's devices a device plugin's id names, e.g. {@code huawei.com/Ascend910
 * Ascend910-3} is the device with phy_id 3, {@code nvidia.com/gpu GPU-5f1c...} the device with that
 * UUID. Ids of other resources, and ids that name no known device, match nothing.
 *
 * <p>What each plugin reports, from its sources:
 *
 * <ul>
 *   <li>Huawei's Ascend device plugin (MindCluster): {@code <type>-<phy_id>} for whole chips
 *       ({@code Ascend910-0}, {@code Ascend310P-1}) and {@code <type>-<cores>c-<vid>-<phy_id>} for
 *       virtual NPUs ({@code Ascend910-2c-100-0}); its own parser (npu-exporter, {@code
 *       GetDeviceID}) takes the last {@code -} field as the physical id. A virtual NPU is matched
 *       to the chip it was cut from.
 *   <li>NVIDIA's k8s-device-plugin: the GPU's UUID by default, its NVML index under {@code
 *       --device-id-strategy=index}; shared GPUs (time-slicing, MPS) are announced as replicas with
 *       a {@code ::<n>} suffix, which is dropped. MIG devices ({@code MIG-...}) match nothing: a
 *       probe measures whole GPUs.
 * </ul>
 */
public final class KubeletDeviceIds {
  private static final Pattern ASCEND =
      Pattern.compile("[A-Za-z][A-Za-z0-9]*(?:-[0-9A-Za-z]+)*-(\\d{1,9})");
  private static final Pattern INDEX = Pattern.compile("\\d{1,9}");

  private KubeletDeviceIds() {}

  /**
   * The holders of each known device, by linkwatch device number; devices nobody holds are absent.
   */
  public static Map<Integer, List<DeviceHolder>> match(
      List<DeviceHolder> holders, List<DeviceKeys> devices) {
    Map<Integer, List<DeviceHolder>> out = new TreeMap<>();
    for (DeviceHolder h : holders) {
      device(h.resource(), h.deviceId(), devices)
          .ifPresent(d -> out.computeIfAbsent(d, k -> new ArrayList<>()).add(h));
    }
    out.replaceAll((d, list) -> List.copyOf(list));
    return out;
  }

  /** The linkwatch device {@code deviceId} of {@code resource} names, if any. */
  static Optional<Integer> device(String resource, String deviceId, List<DeviceKeys> devices) {
    if (resource.startsWith("huawei.com/")) {
      Matcher m = ASCEND.matcher(deviceId);
      return m.matches() ? byPhysicalId(m.group(1), devices) : Optional.empty();
    }
    if (resource.startsWith("nvidia.com/")) {
      int replica = deviceId.indexOf("::");
      String id = replica < 0 ? deviceId : deviceId.substring(0, replica);
      if (INDEX.matcher(id).matches()) {
        return byPhysicalId(id, devices);
      }
      String uuid = id.toLowerCase(Locale.ROOT);
      return uuid.startsWith("gpu-")
          ? devices.stream()
              .filter(k -> k.uuid().toLowerCase(Locale.ROOT).equals(uuid))
              .map(DeviceKeys::device)
              .findFirst()
          : Optional.empty();
    }
    return Optional.empty();
  }

  private static Optional<Integer> byPhysicalId(String id, List<DeviceKeys> devices) {
    String canonical = String.valueOf(Integer.parseInt(id));
    return devices.stream()
        .filter(k -> k.physicalId().equals(canonical))
        .map(DeviceKeys::device)
        .findFirst();
  }
}
