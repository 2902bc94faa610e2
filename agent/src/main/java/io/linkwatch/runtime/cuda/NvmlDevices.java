package io.linkwatch.runtime.cuda;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.LinkType;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NVML handle of each CUDA device. NVML counts every GPU of the host in PCI order and ignores
 * {@code CUDA_VISIBLE_DEVICES}, while CUDA's ordinals follow that variable and {@code
 * CUDA_DEVICE_ORDER}, so the two are matched by PCI bus id, once. {@code nvmlInit_v2} runs on first
 * use, without a CUDA context; where NVML cannot be loaded or initialized every answer is empty.
 */
final class NvmlDevices implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NvmlDevices.class);

  private final Supplier<NvmlLibrary> library;
  private final IntFunction<String> cudaBusId;
  private NvmlLibrary nvml;
  private Map<String, Integer> indexByBusId;
  private Map<Integer, Pointer> handles;

  /** CUDA ordinal to NVML index, found once per device (empty: NVML does not list it). */
  private final Map<Integer, Optional<Integer>> indexByDevice = new HashMap<>();

  private String unavailable;

  /**
   * @param library loads NVML on first use
   * @param cudaBusId a CUDA device's PCI bus id in sysfs form, or null
   */
  NvmlDevices(Supplier<NvmlLibrary> library, IntFunction<String> cudaBusId) {
    this.library = library;
    this.cudaBusId = cudaBusId;
  }

  /** NVML, initialized, with every device's handle; throws when it cannot be had. */
  synchronized NvmlLibrary nvml() {
    if (unavailable != null) {
      throw new DeviceException("nvmlInit_v2", -1, unavailable);
    }
    if (nvml != null) {
      return nvml;
    }
    NvmlLibrary lib;
    try {
      lib = library.get();
    } catch (RuntimeException | UnsatisfiedLinkError e) {
      unavailable = String.valueOf(e.getMessage());
      throw e;
    }
    int rc = lib.nvmlInit_v2();
    if (rc != NvmlLibrary.NVML_SUCCESS) {
      unavailable = "nvmlInit_v2 returned " + rc + ": " + lib.nvmlErrorString(rc);
      throw new DeviceException("nvmlInit_v2", rc, lib.nvmlErrorString(rc));
    }
    IntByReference count = new IntByReference();
    check(lib, "nvmlDeviceGetCount_v2", lib.nvmlDeviceGetCount_v2(count));
    Map<String, Integer> byBus = new HashMap<>();
    Map<Integer, Pointer> byIndex = new HashMap<>();
    for (int i = 0; i < count.getValue(); i++) {
      PointerByReference handle = new PointerByReference();
      check(lib, "nvmlDeviceGetHandleByIndex_v2", lib.nvmlDeviceGetHandleByIndex_v2(i, handle));
      NvmlLibrary.PciInfo pci = new NvmlLibrary.PciInfo();
      check(lib, "nvmlDeviceGetPciInfo_v3", lib.nvmlDeviceGetPciInfo_v3(handle.getValue(), pci));
      String bus = PciBusId.normalize(Native.toString(pci.busId));
      if (bus != null) {
        byBus.put(bus, i);
      }
      byIndex.put(i, handle.getValue());
    }
    indexByBusId = byBus;
    handles = byIndex;
    nvml = lib;
    return lib;
  }

  static void check(NvmlLibrary lib, String function, int code) {
    if (code != NvmlLibrary.NVML_SUCCESS) {
      throw new DeviceException(function, code, lib.nvmlErrorString(code));
    }
  }

  /** NVML's index of a CUDA device, or empty where NVML is missing or does not list it. */
  Optional<Integer> index(int device) {
    try {
      return indexOf(device);
    } catch (RuntimeException | UnsatisfiedLinkError e) {
      return Optional.empty();
    }
  }

  /** The index, with NVML initialized first; throws where NVML cannot be had. */
  private synchronized Optional<Integer> indexOf(int device) {
    nvml();
    Optional<Integer> known = indexByDevice.get(device);
    if (known == null) {
      String bus = cudaBusId.apply(device);
      known = bus == null ? Optional.empty() : Optional.ofNullable(indexByBusId.get(bus));
      indexByDevice.put(device, known);
    }
    return known;
  }

  /** NVML's UUID of a CUDA device ({@code GPU-...}), or empty where NVML cannot tell. */
  Optional<String> uuid(int device) {
    try {
      NvmlLibrary lib = nvml();
      byte[] uuid = new byte[96];
      int rc = lib.nvmlDeviceGetUUID(handle(device), uuid, uuid.length);
      return rc == NvmlLibrary.NVML_SUCCESS
          ? Optional.of(Native.toString(uuid)).filter(u -> !u.isEmpty())
          : Optional.empty();
    } catch (RuntimeException | UnsatisfiedLinkError e) {
      return Optional.empty();
    }
  }

  /** The NVML handle of a CUDA device; throws where there is none. */
  Pointer handle(int device) {
    Optional<Integer> index = indexOf(device);
    if (index.isEmpty()) {
      throw new DeviceException(
          "nvmlDeviceGetPciInfo_v3",
          NvmlLibrary.NVML_ERROR_NOT_FOUND,
          "no NVML device has the PCI bus id of CUDA device " + device);
    }
    synchronized (this) {
      return handles.get(index.get());
    }
  }

  /** NVLink P2P first, else the PCIe path NVML gives; empty where NVML cannot tell. */
  Optional<LinkType> linkType(int device, int other) {
    try {
      NvmlLibrary lib = nvml();
      Pointer a = handle(device);
      Pointer b = handle(other);
      IntByReference status = new IntByReference(-1);
      int rc = lib.nvmlDeviceGetP2PStatus(a, b, NvmlLibrary.NVML_P2P_CAPS_INDEX_NVLINK, status);
      if (rc == NvmlLibrary.NVML_SUCCESS && status.getValue() == NvmlLibrary.NVML_P2P_STATUS_OK) {
        return Optional.of(LinkType.NVLINK);
      }
      IntByReference level = new IntByReference();
      check(
          lib,
          "nvmlDeviceGetTopologyCommonAncestor",
          lib.nvmlDeviceGetTopologyCommonAncestor(a, b, level));
      return Optional.of(LinkType.fromNvmlTopologyLevel(level.getValue()));
    } catch (RuntimeException | UnsatisfiedLinkError e) {
      log.debug("NVML has no link type for {}->{}: {}", device, other, e.getMessage());
      return Optional.empty();
    }
  }

  @Override
  public synchronized void close() {
    if (nvml != null) {
      nvml.nvmlShutdown();
      nvml = null;
    }
  }
}
