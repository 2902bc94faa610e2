package io.linkwatch.runtime.cuda;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The NVML subset ({@code nvml.h}, {@code libnvidia-ml.so.1}) for inventory, link paths and device
 * activity. Bound by the versioned names the header maps its calls to. No logic here.
 */
public interface NvmlLibrary extends Library {
  int nvmlInit_v2();

  int nvmlShutdown();

  String nvmlErrorString(int code);

  int nvmlDeviceGetCount_v2(IntByReference count);

  int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

  int nvmlDeviceGetPciInfo_v3(Pointer device, PciInfo info);

  /** {@code uuid}: at least NVML_DEVICE_UUID_V2_BUFFER_SIZE (96) bytes. */
  int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

  int nvmlDeviceGetTopologyCommonAncestor(Pointer device, Pointer other, IntByReference level);

  int nvmlDeviceGetP2PStatus(Pointer device, Pointer other, int capsIndex, IntByReference status);

  int nvmlDeviceGetComputeRunningProcesses_v3(
      Pointer device, IntByReference count, ProcessInfo infos);

  int nvmlDeviceGetUtilizationRates(Pointer device, Utilization utilization);

  int nvmlDeviceGetNvLinkState(Pointer device, int link, IntByReference isActive);

  int nvmlDeviceGetNvLinkRemotePciInfo_v2(Pointer device, int link, PciInfo pci);

  int nvmlDeviceGetNvLinkRemoteDeviceType(Pointer device, int link, IntByReference type);

  int nvmlDeviceGetNvLinkErrorCounter(
      Pointer device, int link, int counter, LongByReference counterValue);

  /** {@code values} holds {@code count} 40-byte {@code nvmlFieldValue_t} entries. */
  int nvmlDeviceGetFieldValues(Pointer device, int count, Pointer values);

  int nvmlDeviceGetPcieReplayCounter(Pointer device, IntByReference value);

  int NVML_SUCCESS = 0;
  int NVML_ERROR_INVALID_ARGUMENT = 2;
  int NVML_FEATURE_ENABLED = 1;
  int NVML_NVLINK_DEVICE_TYPE_SWITCH = 2;

  /** nvmlNvLinkErrorCounter_t: DL_REPLAY, DL_RECOVERY, DL_CRC_FLIT, DL_CRC_DATA. */
  int NVML_NVLINK_ERROR_DL_REPLAY = 0;

  int NVML_NVLINK_ERROR_DL_RECOVERY = 1;
  int NVML_NVLINK_ERROR_DL_CRC_FLIT = 2;
  int NVML_NVLINK_ERROR_DL_CRC_DATA = 3;

  /** NVML_NVLINK_MAX_LINKS in nvml.h. */
  int NVML_NVLINK_MAX_LINKS = 36;

  int NVML_ERROR_NOT_SUPPORTED = 3;
  int NVML_ERROR_NO_PERMISSION = 4;
  int NVML_ERROR_NOT_FOUND = 6;
  int NVML_ERROR_INSUFFICIENT_SIZE = 7;
  int NVML_P2P_CAPS_INDEX_NVLINK = 2;
  int NVML_P2P_STATUS_OK = 0;

  /** {@code nvmlPciInfo_t}. */
  @Structure.FieldOrder({
    "busIdLegacy",
    "domain",
    "bus",
    "device",
    "pciDeviceId",
    "pciSubSystemId",
    "busId"
  })
  class PciInfo extends Structure {
    public byte[] busIdLegacy = new byte[16];
    public int domain;
    public int bus;
    public int device;
    public int pciDeviceId;
    public int pciSubSystemId;
    public byte[] busId = new byte[32];
  }

  /** {@code nvmlProcessInfo_t} of the {@code _v3} call (pid, memory, MIG instance ids). */
  @Structure.FieldOrder({"pid", "usedGpuMemory", "gpuInstanceId", "computeInstanceId"})
  class ProcessInfo extends Structure {
    public int pid;
    public long usedGpuMemory;
    public int gpuInstanceId;
    public int computeInstanceId;
  }

  /** {@code nvmlUtilization_t}: percent of the last sample period. */
  @Structure.FieldOrder({"gpu", "memory"})
  class Utilization extends Structure {
    public int gpu;
    public int memory;
  }
}
