package io.linkwatch.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Device plugins' ids to linkwatch devices. The host: device 0 has phy_id 4 (an Ascend die whose
 * physical id differs from its logical one), device 1 phy_id 5; on an NVIDIA host NVML index 4 and
 * 5 with UUIDs.
 */
class KubeletDeviceIdsTest {
  static final List<DeviceKeys> DEVICES =
      List.of(
          new DeviceKeys(0, "4", "GPU-5f1c0e2a-0000-0000-0000-000000000004"),
          new DeviceKeys(1, "5", "GPU-77aa0e2a-0000-0000-0000-000000000005"));

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "huawei.com/Ascend910, Ascend910-4, 0",
    "huawei.com/Ascend910, Ascend910-5, 1",
    "huawei.com/Ascend910, Ascend910-05, 1",
    "huawei.com/Ascend310P, Ascend310P-4, 0",
    // a virtual NPU cut from the chip with phy_id 5 (<type>-<cores>c-<vid>-<phy_id>)
    "huawei.com/Ascend910-2c, Ascend910-2c-100-5, 1",
    "nvidia.com/gpu, GPU-5f1c0e2a-0000-0000-0000-000000000004, 0",
    "nvidia.com/gpu, gpu-77AA0E2A-0000-0000-0000-000000000005, 1",
    // a time-sliced replica of a GPU
    "nvidia.com/gpu, GPU-77aa0e2a-0000-0000-0000-000000000005::3, 1",
    // --device-id-strategy=index
    "nvidia.com/gpu, 5, 1",
    "nvidia.com/gpu.shared, 4::1, 0",
  })
  void namesTheDevice(String resource, String id, int device) {
    assertThat(KubeletDeviceIds.device(resource, id, DEVICES)).hasValue(device);
  }

  @ParameterizedTest(name = "{0} {1} -> none")
  @CsvSource({
    // a device this host does not have
    "huawei.com/Ascend910, Ascend910-6",
    "nvidia.com/gpu, GPU-00000000-0000-0000-0000-000000000000",
    "nvidia.com/gpu, 7",
    // MIG instances are not whole devices
    "nvidia.com/mig-1g.10gb, MIG-5f1c0e2a-0000-0000-0000-000000000004",
    // not an accelerator plugin linkwatch knows, whatever the id looks like
    "example.com/fpga, 4",
    "huawei.com/Ascend910, Ascend910",
    "huawei.com/Ascend910, Ascend910-99999999999999",
  })
  void namesNoDevice(String resource, String id) {
    assertThat(KubeletDeviceIds.device(resource, id, DEVICES)).isEqualTo(Optional.empty());
  }

  @Test
  void groupsTheHoldersByDeviceAndLeavesOutTheRest() {
    DeviceHolder a = new DeviceHolder("ml", "train-0", "trainer", "nvidia.com/gpu", "4::0");
    DeviceHolder b = new DeviceHolder("ml", "infer-1", "server", "nvidia.com/gpu", "4::1");
    DeviceHolder other = new DeviceHolder("default", "x", "y", "example.com/fpga", "5");
    assertThat(KubeletDeviceIds.match(List.of(a, other, b), DEVICES))
        .isEqualTo(Map.of(0, List.of(a, b)));
  }

  @Test
  void unknownPhysicalIdsMatchNothing() {
    List<DeviceKeys> unknown = List.of(new DeviceKeys(0, "", ""));
    assertThat(
            KubeletDeviceIds.match(
                List.of(new DeviceHolder("ml", "p", "c", "huawei.com/Ascend910", "Ascend910-0")),
                unknown))
        .isEmpty();
  }
}
