package io.linkwatch.runtime.cuda;

import static io.linkwatch.runtime.cuda.CudaLibrary.Constants.*;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.Memory;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceMonitor;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.LinkTelemetry;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.MemoryInfo;
import io.linkwatch.runtime.PinnedMemoryCalls;
import io.linkwatch.runtime.ToleratedFailure;
import io.linkwatch.runtime.binding.PointerHostBuffer;
import io.linkwatch.runtime.binding.SimLibrary;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
public final class CudaRuntime implements DeviceRuntime {
  private static final Logger log = LoggerFactory.getLogger(CudaRuntime.class);

  private final CudaLibraries libs;
  private final CudaLibrary cu;
  private final CallJournal journal;
  private final Map<Integer, Pointer> contexts = new ConcurrentHashMap<>();
  private final ThreadLocal<Integer> currentDevice = new ThreadLocal<>();
  private final Set<Long> peersEnabled = ConcurrentHashMap.newKeySet();
  private final List<ToleratedFailure> tolerated = Collections.synchronizedList(new ArrayList<>());
  private final NvmlDevices nvml;
  private final NvmlMonitor monitor;
  private final NvmlLinkTelemetry links;

  public CudaRuntime(CudaLibraries libs) {
    this.libs = libs;
    this.cu = libs.cuda();
    this.journal = libs.journal();
    journal.onDevice(CallJournal.NO_DEVICE);
    check("cuInit", cu.cuInit(0));
    this.nvml = new NvmlDevices(libs::nvml, this::pciBusIdOrNull);
    this.monitor = new NvmlMonitor(nvml, journal);
    this.links = new NvmlLinkTelemetry(nvml, journal, this::deviceByBusId, this::pciBusIdOrNull);
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
  public Backend backend() {
    return libs.backend();
  }

  private DeviceException error(String function, int code) {
    return new DeviceException(function, code, describe(code));
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

  private void check(String function, int code) {
    if (code != CUDA_SUCCESS) {
      throw error(function, code);
    }
  }

  private void tolerate(String call, String what) {
    log.debug("tolerated: {}", what);
    tolerated.add(new ToleratedFailure(call, what));
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

  /** Makes {@code device}'s primary context current on the calling thread, once per change. */
  private void use(int device) {
    Pointer ctx = context(device);
    journal.onDevice(device);
    Integer current = currentDevice.get();
    if (current == null || current != device) {
      check("cuCtxSetCurrent", cu.cuCtxSetCurrent(ctx));
      currentDevice.set(device);
    }
  }

  @Override
  public int deviceCount() {
    journal.onDevice(CallJournal.NO_DEVICE);
    IntByReference count = new IntByReference();
    check("cuDeviceGetCount", cu.cuDeviceGetCount(count));
    return count.getValue();
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
  public MemoryInfo memoryInfo(int device) {
    use(device);
    LongByReference free = new LongByReference();
    LongByReference total = new LongByReference();
    check("cuMemGetInfo_v2", cu.cuMemGetInfo_v2(free, total));
    return new MemoryInfo(free.getValue(), total.getValue());
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
  public boolean canAccessPeer(int device, int peer) {
    journal.onDevice(device);
    IntByReference can = new IntByReference();
    check("cuDeviceCanAccessPeer", cu.cuDeviceCanAccessPeer(can, device, peer));
    return can.getValue() == 1;
  }

  @Override
  public void enablePeerAccess(int device, int peer) {
    long key = ((long) device << 32) | (peer & 0xffffffffL);
    if (peersEnabled.contains(key)) {
      return;
    }
    Pointer peerContext = context(peer);
    use(device);
    int rc = cu.cuCtxEnablePeerAccess(peerContext, 0);
    if (rc != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
      check("cuCtxEnablePeerAccess", rc);
    }
    peersEnabled.add(key);
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
  public HostBuffer allocatePinned(long bytes) {
    useAnyContext();
    PointerByReference ptr = new PointerByReference();
    check("cuMemHostAlloc", cu.cuMemHostAlloc(ptr, bytes, CU_MEMHOSTALLOC_PORTABLE));
    Pointer p = ptr.getValue();
    return new PointerHostBuffer(
        p,
        bytes,
        () -> {
          useAnyContext();
          check("cuMemFreeHost", cu.cuMemFreeHost(p));
        });
  }

  private void useAnyContext() {
    Integer current = currentDevice.get();
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
  public DeviceStream createStream(int device) {
    use(device);
    PointerByReference ref = new PointerByReference();
    check("cuStreamCreate", cu.cuStreamCreate(ref, 0));
    Pointer s = ref.getValue();
    return new DeviceStream(
        device,
        Pointer.nativeValue(s),
        () -> {
          use(device);
          check("cuStreamDestroy_v2", cu.cuStreamDestroy_v2(s));
        });
  }

  @Override
  public DeviceEvent createEvent(int device) {
    use(device);
    PointerByReference ref = new PointerByReference();
    check("cuEventCreate", cu.cuEventCreate(ref, 0));
    Pointer e = ref.getValue();
    return new DeviceEvent(
        device,
        Pointer.nativeValue(e),
        () -> {
          use(device);
          check("cuEventDestroy_v2", cu.cuEventDestroy_v2(e));
        });
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

  @Override
  public void record(DeviceEvent event, DeviceStream stream) {
    use(stream.device());
    check(
        "cuEventRecord",
        cu.cuEventRecord(new Pointer(event.address()), new Pointer(stream.address())));
  }

  @Override
  public void synchronize(DeviceStream stream) {
    use(stream.device());
    check("cuStreamSynchronize", cu.cuStreamSynchronize(new Pointer(stream.address())));
  }

  @Override
  public void waitFor(DeviceStream stream, DeviceEvent event) {
    use(stream.device());
    check(
        "cuStreamWaitEvent",
        cu.cuStreamWaitEvent(new Pointer(stream.address()), new Pointer(event.address()), 0));
  }

  @Override
  public float elapsedMillis(DeviceEvent start, DeviceEvent end) {
    use(start.device());
    FloatByReference ms = new FloatByReference();
    check(
        "cuEventElapsedTime",
        cu.cuEventElapsedTime(ms, new Pointer(start.address()), new Pointer(end.address())));
    return ms.getValue();
  }

  private void checkNccl(NcclLibrary nccl, String function, int code) {
    if (code != 0) {
      throw new DeviceException(function, code, nccl.ncclGetErrorString(code));
    }
  }

  @Override
  public List<Communicator> initCollective(int[] devices) {
    for (int d : devices) {
      context(d);
    }
    NcclLibrary nccl = libs.nccl();
    journal.onDevice(devices.length > 0 ? devices[0] : CallJournal.NO_DEVICE);
    Pointer[] comms = new Pointer[devices.length];
    checkNccl(
        nccl, "ncclCommInitAll", nccl.ncclCommInitAll(comms, devices.length, devices.clone()));
    List<Communicator> out = new ArrayList<>();
    for (int rank = 0; rank < devices.length; rank++) {
      Pointer c = comms[rank];
      int device = devices[rank];
      out.add(
          new Communicator(
              rank, device, Pointer.nativeValue(c), () -> destroyCommunicator(nccl, c, device)));
    }
    return out;
  }

  private void destroyCommunicator(NcclLibrary nccl, Pointer c, int device) {
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
  public void allReduceSum(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      Communicator comm,
      DeviceStream stream) {
    use(comm.device());
    NcclLibrary nccl = libs.nccl();
    checkNccl(
        nccl,
        "ncclAllReduce",
        nccl.ncclAllReduce(
            new Pointer(send.address()),
            new Pointer(recv.address()),
            count,
            type.ncclValue(),
            NcclLibrary.NCCL_SUM,
            new Pointer(comm.address()),
            new Pointer(stream.address())));
  }

  @Override
  public void allGather(
      DeviceBuffer send,
      DeviceBuffer recv,
      long sendCount,
      DataType type,
      Communicator comm,
      DeviceStream stream) {
    use(comm.device());
    NcclLibrary nccl = libs.nccl();
    checkNccl(
        nccl,
        "ncclAllGather",
        nccl.ncclAllGather(
            new Pointer(send.address()),
            new Pointer(recv.address()),
            sendCount,
            type.ncclValue(),
            new Pointer(comm.address()),
            new Pointer(stream.address())));
  }

  @Override
  public DeviceMonitor monitor() {
    return monitor;
  }

  @Override
  public LinkTelemetry linkTelemetry() {
    return links;
  }

  @Override
  public Optional<Long> liveAllocations() {
    return libs.sim().map(SimLibrary::linkwatch_sim_live_allocations);
  }

  @Override
  public List<ToleratedFailure> toleratedFailures() {
    synchronized (tolerated) {
      return List.copyOf(tolerated);
    }
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
