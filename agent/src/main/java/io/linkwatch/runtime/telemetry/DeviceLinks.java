package io.linkwatch.runtime.telemetry;

import java.util.List;

/**
 * What one passive read of one device found: its links, its PCIe replay counter and its PCI
 * address, with the readings the product does not support named apart (they get no series, and are
 * not errors). A read that failed keeps what was read before the failure and names the call.
 *
 * @param device the runtime's device number, as the active probes label it
 * @param source the library read ({@code dcmi}, {@code nvml})
 * @param pciAddress the device's PCI function in sysfs form, or null when the library does not say
 * @param pcieReplays the PCIe replay counter (NVML), or null
 * @param unsupported readings the product does not support, e.g. {@code dcmi_get_device_info(HCCS
 *     statistics u64): -8255 not supported on this device}
 * @param error why the read failed, or null
 * @param failedCall the library call that failed, or null
 * @param npuPort what the public DCMI calls gave of the device's own RoCE port, or null (NVML, or
 *     none of those calls answered)
 */
public record DeviceLinks(
    int device,
    String source,
    String pciAddress,
    List<LinkReading> links,
    Long pcieReplays,
    List<String> unsupported,
    String error,
    String failedCall,
    NpuPortReading npuPort) {

  public DeviceLinks {
    links = links == null ? List.of() : List.copyOf(links);
    unsupported = unsupported == null ? List.of() : List.copyOf(unsupported);
  }

  /** A read with no port of the device's own. */
  public DeviceLinks(
      int device,
      String source,
      String pciAddress,
      List<LinkReading> links,
      Long pcieReplays,
      List<String> unsupported,
      String error,
      String failedCall) {
    this(device, source, pciAddress, links, pcieReplays, unsupported, error, failedCall, null);
  }

  public boolean failed() {
    return error != null;
  }
}
