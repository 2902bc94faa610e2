package io.linkwatch.kubelet;

/**
 * What a device plugin may call one of linkwatch's devices: its physical id (Ascend's phy_id,
 * NVIDIA's NVML index) and, where the runtime reports one, its UUID ({@code GPU-...}). Empty
 * strings stand for unknown.
 *
 * @param device linkwatch's device number, as in every {@code device} label
 */
public record DeviceKeys(int device, String physicalId, String uuid) {}
