package io.linkwatch.runtime.cuda;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceMonitor;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.Utilization;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link DeviceMonitor} over NVML: the compute processes holding a GPU and its utilization, read
 * without a CUDA context. {@link Utilization#NPU} is NVML's GPU utilization (kernels running),
 * {@link Utilization#HBM_BANDWIDTH} its memory utilization (device memory read or written); NVIDIA
 * GPUs have no AI Core reading.
 */
final class NvmlMonitor implements DeviceMonitor, AutoCloseable {
  /** Room for this many processes on the first try; NVML says how many more it needs. */
  private static final int FIRST_TRY = 32;

  private final NvmlDevices devices;
  private final CallJournal journal;

  NvmlMonitor(NvmlDevices devices, CallJournal journal) {
    this.devices = devices;
    this.journal = journal;
  }

  @Override
  public String source() {
    return "nvml";
  }

  @Override
  public boolean permanent(int code) {
    return code == NvmlLibrary.NVML_ERROR_NOT_SUPPORTED
        || code == NvmlLibrary.NVML_ERROR_NO_PERMISSION;
  }

  @Override
  public List<DeviceProcess> processes(int device) {
    NvmlLibrary nvml = devices.nvml();
    Pointer handle = devices.handle(device);
    journal.onDevice(device);
    int room = FIRST_TRY;
    for (int attempt = 0; attempt < 3; attempt++) {
      NvmlLibrary.ProcessInfo first = new NvmlLibrary.ProcessInfo();
      Structure[] entries = first.toArray(room);
      IntByReference count = new IntByReference(room);
      int rc = nvml.nvmlDeviceGetComputeRunningProcesses_v3(handle, count, first);
      if (rc == NvmlLibrary.NVML_ERROR_INSUFFICIENT_SIZE) {
        // Processes came between the calls: ask again with the room NVML named.
        room = Math.max(count.getValue(), room) + 8;
        continue;
      }
      NvmlDevices.check(nvml, "nvmlDeviceGetComputeRunningProcesses_v3", rc);
      int n = Math.min(Math.max(count.getValue(), 0), room);
      List<DeviceProcess> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        entries[i].read();
        NvmlLibrary.ProcessInfo p = (NvmlLibrary.ProcessInfo) entries[i];
        out.add(new DeviceProcess(Integer.toUnsignedLong(p.pid), p.usedGpuMemory));
      }
      return out;
    }
    throw new DeviceException(
        "nvmlDeviceGetComputeRunningProcesses_v3",
        NvmlLibrary.NVML_ERROR_INSUFFICIENT_SIZE,
        "the process list kept growing between calls");
  }

  @Override
  public double utilization(int device, Utilization kind) {
    if (kind == Utilization.AICORE) {
      throw new DeviceException(
          "nvmlDeviceGetUtilizationRates",
          NvmlLibrary.NVML_ERROR_NOT_SUPPORTED,
          "NVIDIA GPUs have no AI Core utilization");
    }
    NvmlLibrary nvml = devices.nvml();
    Pointer handle = devices.handle(device);
    journal.onDevice(device);
    NvmlLibrary.Utilization u = new NvmlLibrary.Utilization();
    NvmlDevices.check(
        nvml, "nvmlDeviceGetUtilizationRates", nvml.nvmlDeviceGetUtilizationRates(handle, u));
    int percent = kind == Utilization.HBM_BANDWIDTH ? u.memory : u.gpu;
    return Integer.toUnsignedLong(percent) / 100.0;
  }

  @Override
  public void close() {
    devices.close();
  }
}
