package io.linkwatch.runtime.cuda;

import static io.linkwatch.runtime.cuda.CudaLibrary.Constants.*;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.Memory;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.PinnedMemoryCalls;
import io.linkwatch.runtime.binding.NativeRuntime;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link DeviceRuntime} over the CUDA driver API, with NVML for link paths and activity and NCCL
 * for collectives. The same code runs against the NVIDIA driver and against the sim's CUDA face.
 *
 * <p>Each device's primary context (the one the CUDA runtime and frameworks share) is retained once
 * and made current on a thread before that thread's first call for the device, as the driver's
 * per-thread current-context model requires; {@link #close()} releases every one. Errors carry
 * {@code cuGetErrorName}'s and {@code cuGetErrorString}'s texts, e.g. {@code cuMemcpyPeerAsync
 * returned 700: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)}.
 *
 * <p>Devices are the driver's ordinals (after {@code CUDA_VISIBLE_DEVICES}); NVML, which ignores
 * that variable and counts in PCI order, is matched to them by PCI bus id ({@link NvmlDevices}).
 */
public final class CudaRuntime extends NativeRuntime {
  private final CudaLibraries libs;
  private final CudaLibrary cu;
  private final Map<Integer, Pointer> contexts = new ConcurrentHashMap<>();
  private final NvmlDevices nvml;
  private final NvmlMonitor monitor;

  public CudaRuntime(CudaLibraries libs) {
    super(libs.backend(), libs.sim(), libs.journal());
    this.libs = libs;
    this.cu = libs.cuda();
    journal.onDevice(CallJournal.NO_DEVICE);
    check("cuInit", cu.cuInit(0));
    this.nvml = new NvmlDevices(libs::nvml, this::pciBusIdOrNull);
    this.monitor = new NvmlMonitor(nvml, journal);
    telemetry(
        monitor, new NvmlLinkTelemetry(nvml, journal, this::deviceByBusId, this::pciBusIdOrNull));
  }

  /** The CUDA device at a PCI address (sysfs form), or null. */
  private Integer deviceByBusId(String busId) {
    if (busId == null) {
      return null;
    }
    for (int d = 0; d < deviceCount(); d++) {
      if (busId.equals(pciBusIdOrNull(d))) {
        return d;
      }
    }
    return null;
  }

  public static CudaRuntime open(Backend backend, CallJournal journal) {
    return new CudaRuntime(CudaLibraries.load(backend, journal));
  }

  @Override
  protected String errorDetail(int code) {
    return describe(code);
  }

  @Override
  protected String collectiveDetail(int code) {
    return libs.nccl().ncclGetErrorString(code);
  }

  /** {@code CUDA_ERROR_X (text)}, or nothing where the driver has no text for the code. */
  private String describe(int code) {
    PointerByReference name = new PointerByReference();
    PointerByReference text = new PointerByReference();
    String n = cu.cuGetErrorName(code, name) == CUDA_SUCCESS ? string(name) : null;
    String t = cu.cuGetErrorString(code, text) == CUDA_SUCCESS ? string(text) : null;
    if (n == null) {
      return t;
    }
    return t == null ? n : n + " (" + t + ")";
  }

  private static String string(PointerByReference ref) {
    Pointer p = ref.getValue();
    return p == null ? null : p.getString(0);
  }

  /** The device's primary context, retained on first use. */
  private Pointer context(int device) {
    Pointer known = contexts.get(device);
    if (known != null) {
      return known;
    }
    synchronized (contexts) {
      known = contexts.get(device);
      if (known == null) {
        journal.onDevice(device);
        PointerByReference ref = new PointerByReference();
        check("cuDevicePrimaryCtxRetain", cu.cuDevicePrimaryCtxRetain(ref, device));
        known = ref.getValue();
        contexts.put(device, known);
      }
      return known;
    }
  }

  /** A device's primary context is retained before its first call. */
  @Override
  protected void retain(int device) {
    context(device);
  }

  /** Makes {@code device}'s primary context current on the calling thread. */
  @Override
  protected void setCurrent(int device) {
    check("cuCtxSetCurrent", cu.cuCtxSetCurrent(context(device)));
  }

  @Override
  protected int countDevices() {
    return intOut("cuDeviceGetCount", cu::cuDeviceGetCount);
  }

  /** Device 0's name, e.g. {@code NVIDIA H200}: one server holds one kind of GPU. */
  @Override
  public String socName() {
    journal.onDevice(0);
    byte[] name = new byte[256];
    int rc = cu.cuDeviceGetName(name, name.length, 0);
    if (rc != CUDA_SUCCESS) {
      tolerate(
          "cuDeviceGetName",
          "cuDeviceGetName(0) returned " + rc + "; devices are named \"unknown\"");
      return "unknown";
    }
    return Native.toString(name);
  }

  @Override
  protected void readMemoryInfo(LongByReference free, LongByReference total) {
    check("cuMemGetInfo_v2", cu.cuMemGetInfo_v2(free, total));
  }

  /** NVML's index of the device, the number nvidia-smi shows; empty without NVML. */
  @Override
  public Optional<Integer> physicalId(int device) {
    journal.onDevice(device);
    return nvml.index(device);
  }

  /** NVML's UUID of the device ({@code GPU-...}); empty without NVML. */
  @Override
  public Optional<String> uuid(int device) {
    journal.onDevice(device);
    return nvml.uuid(device);
  }

  @Override
  public int hostDeviceId(int device) {
    return nvml.index(device)
        .orElseThrow(() -> new IllegalArgumentException("device " + device + " has no NVML index"));
  }

  @Override
  public Optional<String> pciBusId(int device) {
    return Optional.ofNullable(pciBusIdOrNull(device));
  }

  private String pciBusIdOrNull(int device) {
    journal.onDevice(device);
    byte[] id = new byte[32];
    int rc = cu.cuDeviceGetPCIBusId(id, id.length, device);
    return rc == CUDA_SUCCESS ? PciBusId.normalize(Native.toString(id)) : null;
  }

  /**
   * NVLink where NVML reports NVLink P2P between the two (direct or through NVSwitch, where the
   * links end at the switch, so link states alone cannot tell the peer), else the PCIe path.
   */
  @Override
  public String linkTypeSource() {
    return "nvml";
  }

  @Override
  public Optional<LinkType> linkType(int device, int other) {
    journal.onDevice(device);
    return nvml.linkType(device, other);
  }

  @Override
  protected int peerAccess(int device, int peer) {
    return intOut("cuDeviceCanAccessPeer", can -> cu.cuDeviceCanAccessPeer(can, device, peer));
  }

  /** Enabled already (by another runtime of this process, say) counts as enabled. */
  @Override
  protected void enablePeer(int device, int peer) {
    Pointer peerContext = context(peer);
    use(device);
    int rc = cu.cuCtxEnablePeerAccess(peerContext, 0);
    if (rc != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
      check("cuCtxEnablePeerAccess", rc);
    }
  }

  @Override
  public DeviceBuffer allocate(int device, long bytes) {
    use(device);
    LongByReference ptr = new LongByReference();
    check("cuMemAlloc_v2", cu.cuMemAlloc_v2(ptr, bytes));
    long p = ptr.getValue();
    return new DeviceBuffer(
        device,
        p,
        bytes,
        () -> {
          use(device);
          check("cuMemFree_v2", cu.cuMemFree_v2(p));
        });
  }

  /**
   * Portable pinned memory: pinned for every context, so one buffer serves every device. The call
   * needs a current context; device 0's is used where the thread has none.
   */
  @Override
  protected Pointer allocateHost(long bytes) {
    useAnyContext();
    return pointerOut(
        "cuMemHostAlloc", ptr -> cu.cuMemHostAlloc(ptr, bytes, CU_MEMHOSTALLOC_PORTABLE));
  }

  @Override
  protected void freeHost(Pointer p) {
    useAnyContext();
    check("cuMemFreeHost", cu.cuMemFreeHost(p));
  }

  private void useAnyContext() {
    Integer current = currentDevice();
    use(current == null ? 0 : current);
  }

  @Override
  public Optional<AutoCloseable> registerPinned(HostBuffer buffer) {
    useAnyContext();
    Pointer p = new Pointer(buffer.address());
    int rc = cu.cuMemHostRegister_v2(p, buffer.size(), CU_MEMHOSTREGISTER_PORTABLE);
    if (rc == CUDA_ERROR_NOT_SUPPORTED) {
      return Optional.empty();
    }
    check("cuMemHostRegister_v2", rc);
    return Optional.of(
        () -> {
          useAnyContext();
          check("cuMemHostUnregister", cu.cuMemHostUnregister(p));
        });
  }

  @Override
  public PinnedMemoryCalls pinnedMemoryCalls() {
    return PinnedMemoryCalls.CUDA;
  }

  @Override
  protected Pointer newStream() {
    return pointerOut("cuStreamCreate", ref -> cu.cuStreamCreate(ref, 0));
  }

  @Override
  protected void synchronizeStream(Pointer stream) {
    check("cuStreamSynchronize", cu.cuStreamSynchronize(stream));
  }

  @Override
  protected void waitEvent(Pointer stream, Pointer event) {
    check("cuStreamWaitEvent", cu.cuStreamWaitEvent(stream, event, 0));
  }

  @Override
  protected void destroyStream(Pointer stream) {
    check("cuStreamDestroy_v2", cu.cuStreamDestroy_v2(stream));
  }

  @Override
  protected Pointer newEvent() {
    return pointerOut("cuEventCreate", ref -> cu.cuEventCreate(ref, 0));
  }

  @Override
  protected void recordEvent(Pointer event, Pointer stream) {
    check("cuEventRecord", cu.cuEventRecord(event, stream));
  }

  @Override
  protected void elapsedTime(FloatByReference ms, int device, Pointer start, Pointer end) {
    use(device);
    check("cuEventElapsedTime", cu.cuEventElapsedTime(ms, start, end));
  }

  @Override
  protected void destroyEvent(Pointer event) {
    check("cuEventDestroy_v2", cu.cuEventDestroy_v2(event));
  }

  @Override
  public void copyAsync(
      Memory dst, long dstOffset, Memory src, long srcOffset, long bytes, DeviceStream stream) {
    use(stream.device());
    long d = dst.address() + dstOffset;
    long s = src.address() + srcOffset;
    Pointer st = new Pointer(stream.address());
    if (src instanceof DeviceBuffer from && dst instanceof DeviceBuffer to) {
      if (from.device() == to.device()) {
        check("cuMemcpyDtoDAsync_v2", cu.cuMemcpyDtoDAsync_v2(d, s, bytes, st));
      } else {
        check(
            "cuMemcpyPeerAsync",
            cu.cuMemcpyPeerAsync(d, context(to.device()), s, context(from.device()), bytes, st));
      }
    } else if (dst instanceof DeviceBuffer) {
      check("cuMemcpyHtoDAsync_v2", cu.cuMemcpyHtoDAsync_v2(d, new Pointer(s), bytes, st));
    } else if (src instanceof DeviceBuffer) {
      check("cuMemcpyDtoHAsync_v2", cu.cuMemcpyDtoHAsync_v2(new Pointer(d), s, bytes, st));
    } else {
      throw hostToHost();
    }
  }

  @Override
  public void copy(Memory dst, long dstOffset, Memory src, long srcOffset, long bytes) {
    long d = dst.address() + dstOffset;
    long s = src.address() + srcOffset;
    if (src instanceof DeviceBuffer from && dst instanceof DeviceBuffer to) {
      use(from.device());
      if (from.device() == to.device()) {
        check("cuMemcpyDtoD_v2", cu.cuMemcpyDtoD_v2(d, s, bytes));
      } else {
        check(
            "cuMemcpyPeer",
            cu.cuMemcpyPeer(d, context(to.device()), s, context(from.device()), bytes));
      }
    } else if (dst instanceof DeviceBuffer to) {
      use(to.device());
      check("cuMemcpyHtoD_v2", cu.cuMemcpyHtoD_v2(d, new Pointer(s), bytes));
    } else if (src instanceof DeviceBuffer from) {
      use(from.device());
      check("cuMemcpyDtoH_v2", cu.cuMemcpyDtoH_v2(new Pointer(d), s, bytes));
    } else {
      throw hostToHost();
    }
  }

  /**
   * No probe copies host to host through the device runtime; CUDA would need a kernel-less path.
   */
  private static IllegalArgumentException hostToHost() {
    return new IllegalArgumentException("host-to-host copies are not device work");
  }

  /** The devices' contexts are retained first: NCCL uses each device's primary context. */
  @Override
  protected Pointer[] initCommunicators(int[] devices) {
    for (int d : devices) {
      context(d);
    }
    NcclLibrary nccl = libs.nccl();
    journal.onDevice(devices.length > 0 ? devices[0] : CallJournal.NO_DEVICE);
    Pointer[] comms = new Pointer[devices.length];
    checkCollective(
        "ncclCommInitAll", nccl.ncclCommInitAll(comms, devices.length, devices.clone()));
    return comms;
  }

  @Override
  protected byte[] rootInfo() {
    byte[] id = new byte[NcclLibrary.UniqueId.BYTES];
    checkCollective("ncclGetUniqueId", libs.nccl().ncclGetUniqueId(id));
    return id;
  }

  @Override
  protected Pointer initRank(byte[] rootInfo, int ranks, int rank) {
    if (rootInfo.length != NcclLibrary.UniqueId.BYTES) {
      throw new IllegalArgumentException(
          "an NCCL unique id is " + NcclLibrary.UniqueId.BYTES + " bytes, not " + rootInfo.length);
    }
    NcclLibrary.UniqueId id = new NcclLibrary.UniqueId();
    System.arraycopy(rootInfo, 0, id.internal, 0, rootInfo.length);
    PointerByReference comm = new PointerByReference();
    checkCollective("ncclCommInitRank", libs.nccl().ncclCommInitRank(comm, ranks, id, rank));
    return comm.getValue();
  }

  @Override
  protected void destroyCommunicator(Pointer c, int device) {
    NcclLibrary nccl = libs.nccl();
    journal.onDevice(device);
    int rc = nccl.ncclCommDestroy(c);
    if (rc != 0) {
      tolerate(
          "ncclCommDestroy",
          "ncclCommDestroy (device "
              + device
              + ") returned "
              + rc
              + ": "
              + nccl.ncclGetErrorString(rc));
    }
  }

  @Override
  protected void reduceSum(
      Pointer send, Pointer recv, long count, DataType type, Pointer comm, Pointer stream) {
    NcclLibrary nccl = libs.nccl();
    checkCollective(
        "ncclAllReduce",
        nccl.ncclAllReduce(
            send, recv, count, type.ncclValue(), NcclLibrary.NCCL_SUM, comm, stream));
  }

  @Override
  protected void pointToPoint(
      Pointer send,
      Pointer recv,
      long count,
      DataType type,
      int peer,
      Pointer comm,
      Pointer stream) {
    NcclLibrary nccl = libs.nccl();
    if (send != null && recv != null) {
      // Both directions at once: NCCL runs a group's sends and receives together.
      checkCollective("ncclGroupStart", nccl.ncclGroupStart());
      int sent = nccl.ncclSend(send, count, type.ncclValue(), peer, comm, stream);
      int received =
          sent == 0 ? nccl.ncclRecv(recv, count, type.ncclValue(), peer, comm, stream) : 0;
      // Every group that started must end, even after a refused call.
      int ended = nccl.ncclGroupEnd();
      checkCollective("ncclSend", sent);
      checkCollective("ncclRecv", received);
      checkCollective("ncclGroupEnd", ended);
    } else if (recv == null) {
      checkCollective("ncclSend", nccl.ncclSend(send, count, type.ncclValue(), peer, comm, stream));
    } else {
      checkCollective("ncclRecv", nccl.ncclRecv(recv, count, type.ncclValue(), peer, comm, stream));
    }
  }

  @Override
  protected void gather(
      Pointer send, Pointer recv, long sendCount, DataType type, Pointer comm, Pointer stream) {
    NcclLibrary nccl = libs.nccl();
    checkCollective(
        "ncclAllGather", nccl.ncclAllGather(send, recv, sendCount, type.ncclValue(), comm, stream));
  }

  /** Releases every primary context this runtime retained; the driver keeps no other state. */
  @Override
  public void close() {
    contexts.forEach(
        (device, ctx) -> {
          journal.onDevice(device);
          int rc = cu.cuDevicePrimaryCtxRelease_v2(device);
          if (rc != CUDA_SUCCESS) {
            String text = describe(rc);
            tolerate(
                "cuDevicePrimaryCtxRelease_v2",
                "cuDevicePrimaryCtxRelease_v2("
                    + device
                    + ") returned "
                    + rc
                    + (text == null ? "" : ": " + text));
          }
        });
    contexts.clear();
    monitor.close();
  }
}
