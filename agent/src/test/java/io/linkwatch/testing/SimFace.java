package io.linkwatch.testing;

import io.linkwatch.probe.p2p.DevicePair;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import java.util.List;
import java.util.Map;

/**
 * The two faces of the sim, for tests that run once per vendor binding: the same simulator core
 * through AscendCL/HCCL ({@code sim}, built-in Atlas 800T A3 profile) and through the CUDA driver
 * API/NVML/NCCL ({@code sim-cuda}, built-in 8 x H200 NVLink profile). Each carries what differs
 * between them: the figures of its built-in profile and the C symbol of each kind of call, so a
 * test injects a fault into the call the binding really makes.
 */
public enum SimFace {
  ASCEND(
      Backend.SIM,
      2,
      "Ascend910_9382",
      64L << 30,
      "SIO",
      190e9,
      621e9,
      58e9,
      41e9,
      new String[] {
        "aclrtMemcpyAsync",
        "aclrtMallocWithCfg",
        "aclrtCreateEvent",
        "aclrtSynchronizeStream",
        "aclrtMemcpy",
        "aclrtRecordEvent",
        "aclrtMallocHost",
        "HcclAllReduce",
        "HcclCommInitAll",
        "aclrtMemcpyAsync",
        "aclrtCreateStream",
        "aclrtEventElapsedTime",
        "HcclAllGather",
        "aclrtMemcpy",
        "aclrtStreamWaitEvent",
        "aclInit",
        "aclrtGetDeviceCount",
        "dcmi_init",
        "dcmi_get_device_resource_info",
        "aclrtHostRegisterV2",
        "aclrtMemcpyAsync"
      },
      507011,
      270e-6,
      1.64),
  CUDA(
      Backend.SIM_CUDA,
      8,
      "NVIDIA H200",
      143771L << 20,
      "NVLINK",
      370e9,
      2000e9,
      55e9,
      55e9,
      new String[] {
        "cuMemcpyPeerAsync",
        "cuMemAlloc_v2",
        "cuEventCreate",
        "cuStreamSynchronize",
        "cuMemcpyHtoD_v2",
        "cuEventRecord",
        "cuMemHostAlloc",
        "ncclAllReduce",
        "ncclCommInitAll",
        "cuMemcpyHtoDAsync_v2",
        "cuStreamCreate",
        "cuEventElapsedTime",
        "ncclAllGather",
        "cuMemcpyDtoH_v2",
        "cuStreamWaitEvent",
        "cuInit",
        "cuDeviceGetCount",
        "nvmlInit_v2",
        "nvmlDeviceGetComputeRunningProcesses_v3",
        "cuMemHostRegister_v2",
        "cuMemcpyDtoDAsync_v2"
      },
      700,
      15e-6,
      1.9);

  /** The kinds of call a test may break; {@link #symbol} names each face's function. */
  public enum Call {
    PEER_COPY_ASYNC,
    DEVICE_MALLOC,
    CREATE_EVENT,
    SYNCHRONIZE_STREAM,
    COPY,
    RECORD_EVENT,
    HOST_MALLOC,
    ALLREDUCE,
    COMM_INIT,
    HOST_TO_DEVICE_ASYNC,
    CREATE_STREAM,
    ELAPSED_TIME,
    ALLGATHER,
    /** The synchronous device-to-host copy that reads buffers back for the data check. */
    READBACK,
    STREAM_WAIT,
    INIT,
    DEVICE_COUNT,
    /** The device-activity library's initialization (DCMI, NVML). */
    MONITOR_INIT,
    /** The device-activity library's process list. */
    MONITOR_PROCESSES,
    /** Page-locking memory the process already has. */
    HOST_REGISTER,
    /** The asynchronous copy within one device's memory (the device_memory probe's). */
    LOCAL_COPY_ASYNC
  }

  private final Backend backend;
  private final int devices;
  private final String deviceName;
  private final long memoryBytes;
  private final String link01;
  private final double linkBandwidth;
  private final double localBandwidth;
  private final double pinnedH2d;
  private final double pinnedD2h;
  private final String[] symbols;
  private final int deviceErrorCode;
  private final double allreduceLatency;
  private final double bidirectional;

  SimFace(
      Backend backend,
      int devices,
      String deviceName,
      long memoryBytes,
      String link01,
      double linkBandwidth,
      double localBandwidth,
      double pinnedH2d,
      double pinnedD2h,
      String[] symbols,
      int deviceErrorCode,
      double allreduceLatency,
      double bidirectional) {
    this.backend = backend;
    this.devices = devices;
    this.deviceName = deviceName;
    this.memoryBytes = memoryBytes;
    this.link01 = link01;
    this.linkBandwidth = linkBandwidth;
    this.localBandwidth = localBandwidth;
    this.pinnedH2d = pinnedH2d;
    this.pinnedD2h = pinnedD2h;
    this.symbols = symbols;
    this.deviceErrorCode = deviceErrorCode;
    this.allreduceLatency = allreduceLatency;
    this.bidirectional = bidirectional;
  }

  /** A code of the activity library for "not supported here", which it will not get over. */
  public int monitorNotSupportedCode() {
    return this == ASCEND ? -8013 : 3;
  }

  /** What topology results name as the source of the runtime's own link answers. */
  public String linkTypeSource() {
    return this == ASCEND ? "aclrtGetDevicesTopo" : "nvml";
  }

  /** The environment variable that limits which host devices the runtime shows. */
  public String visibleDevicesVariable() {
    return this == ASCEND ? "ASCEND_RT_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
  }

  /**
   * The environment that narrows the built-in profile to its first two devices (the CUDA face's
   * eight GPUs make 56 pairs), so a command's figures are those of link 0-1 on both faces.
   */
  public Map<String, String> firstTwoDevices() {
    return this == ASCEND ? Map.of() : Map.of(visibleDevicesVariable(), "0,1");
  }

  /** The physical id the built-in profile gives host device {@code hostDevice}. */
  public int physicalId(int hostDevice) {
    return this == ASCEND ? 2 + hostDevice : hostDevice;
  }

  /** What the vendor's tools call device {@code n} in a matrix: {@code NPU0}, {@code GPU0}. */
  public String matrixName(int n) {
    return backend.vendor().deviceWord() + n;
  }

  /** A profile under {@code native/profiles} with eight devices all joined by one link type. */
  public String eightDeviceProfile() {
    return this == ASCEND ? "8x910b-hccs.profile" : "hgx-h200.profile";
  }

  /** The device name in {@link #eightDeviceProfile}. */
  public String eightDeviceName() {
    return this == ASCEND ? "Ascend910B3" : "NVIDIA H200";
  }

  /** The link type of every pair in {@link #eightDeviceProfile}. */
  public String eightDeviceLink() {
    return this == ASCEND ? "HCCS" : "NVLINK";
  }

  /** A profile under {@code native/profiles} with one device. */
  public String singleDeviceProfile() {
    return this == ASCEND ? "single-device.profile" : "single-gpu.profile";
  }

  /** The collective library's code for an internal error, and the text it gives for it. */
  public int collectiveInternalErrorCode() {
    return this == ASCEND ? 4 : 3;
  }

  /** The profile's allreduce bus bandwidth for large messages, bytes per second. */
  public double allreduceBusBandwidth() {
    return this == ASCEND ? 105e9 : 480e9;
  }

  /** The management library that tells who uses a device: {@code dcmi} or {@code nvml}. */
  public String monitorSource() {
    return this == ASCEND ? "dcmi" : "nvml";
  }

  /**
   * The utilization kind a {@code busy ... util N} line shows up as: DCMI's AI Core reading, NVML's
   * GPU utilization (reported as {@code npu}, the whole device).
   */
  public String busyUtilizationKind() {
    return this == ASCEND ? "aicore" : "npu";
  }

  /** The profile's allgather latency, seconds. */
  public double allgatherLatency() {
    return this == ASCEND ? 270e-6 : 15e-6;
  }

  /** The profile's allgather bus bandwidth, bytes per second. */
  public double allgatherBusBandwidth() {
    return this == ASCEND ? 150e9 : 380e9;
  }

  /** How many times one direction's bandwidth link 0-1 moves with both directions at once. */
  public double bidirectional() {
    return bidirectional;
  }

  /** The profile's allreduce latency over all its devices, seconds (1 KB is about this). */
  public double allreduceLatency() {
    return allreduceLatency;
  }

  /** Every device, as a collective's target names them: {@code 0,1}. */
  public String allDevices() {
    return String.join(
        ",", java.util.stream.IntStream.range(0, devices).mapToObj(String::valueOf).toList());
  }

  public Backend backend() {
    return backend;
  }

  /** The sim through this face's real JNA binding, in this process. */
  public DeviceRuntime open() {
    return DeviceRuntimes.open(backend);
  }

  public int devices() {
    return devices;
  }

  public String deviceName() {
    return deviceName;
  }

  public long memoryBytes() {
    return memoryBytes;
  }

  /** The link label of devices 0 and 1, e.g. {@code SIO}. */
  public String link01() {
    return link01;
  }

  /** The profile's per-copy latency of link 0-1, seconds. */
  public double linkLatency() {
    return this == ASCEND ? 0.21e-3 : 0.01e-3;
  }

  /** The profile's one-way bandwidth of link 0-1, bytes per second. */
  public double linkBandwidth() {
    return linkBandwidth;
  }

  public double localBandwidth() {
    return localBandwidth;
  }

  public double pinnedH2d() {
    return pinnedH2d;
  }

  public double pinnedD2h() {
    return pinnedD2h;
  }

  public String symbol(Call call) {
    return symbols[call.ordinal()];
  }

  /** A plausible device-side failure code of this face's runtime, for fault lines. */
  public int deviceErrorCode() {
    return deviceErrorCode;
  }

  /** Pairs 0->1 and 1->0, the ones both profiles have: keeps the 8-GPU face's p2p runs short. */
  public List<DevicePair> firstPairs() {
    return List.of(new DevicePair(0, 1), new DevicePair(1, 0));
  }
}
