package io.linkwatch.kubelet;

/**
 * One device the kubelet allocated to a container, as its pod-resources API lists it, e.g. {@code
 * ml/train-0/trainer nvidia.com/gpu GPU-5f1c...} or {@code ml/train-0/trainer huawei.com/Ascend910
 * Ascend910-3}. It says which workload was given the device, not which process uses it.
 *
 * @param resource the extended resource, e.g. {@code huawei.com/Ascend910}
 * @param deviceId the device plugin's id of the device, e.g. {@code Ascend910-3}
 */
public record DeviceHolder(
    String namespace, String pod, String container, String resource, String deviceId) {

  /** {@code namespace/pod/container}, as logs and the status page show a holder. */
  @Override
  public String toString() {
    return namespace + "/" + pod + "/" + container;
  }
}
