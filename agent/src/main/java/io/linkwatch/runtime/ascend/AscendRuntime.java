package io.linkwatch.runtime.ascend;

import static io.linkwatch.runtime.ascend.AclLibrary.Constants.*;

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
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link DeviceRuntime} over AscendCL and HCCL. The same code runs against CANN and against the
 * sim: only the loaded library differs. Every non-zero return becomes a {@link DeviceException}
 * with {@code aclGetRecentErrMsg}'s (or {@code HcclGetErrorString}'s) text, except where the run
 * can go on: those become {@link ToleratedFailure}s. Each call tells the {@link CallJournal} the
 * device it concerns, so a hang or crash can be placed on a device.
 */
public final class AscendRuntime implements DeviceRuntime {
  private static final Logger log = LoggerFactory.getLogger(AscendRuntime.class);

  /**
   * Every code AscendCL documents for "not supported" (aclError.md): ACL_ERROR_API_NOT_SUPPORT (the
   * interface), ACL_ERROR_FEATURE_UNSUPPORTED (the feature), ACL_ERROR_RT_FEATURE_NOT_SUPPORT (the
   * feature, from the runtime). A call answered with one of them has a fallback, not a failure.
   */
  static final Set<Integer> NOT_SUPPORTED = Set.of(200001, 200006, 207000);

  private final AscendLibraries libs;
  private final AclLibrary acl;
  private final ThreadLocal<Integer> currentDevice = new ThreadLocal<>();
  private final Map<Integer, AtomicInteger> deviceUses = new ConcurrentHashMap<>();
  private final Set<Long> peersEnabled = ConcurrentHashMap.newKeySet();
  private final DcmiMonitor monitor;
  private final DcmiLinkTelemetry links;
  private final Map<Integer, Map<Integer, Optional<LinkType>>> peerTypes =
      new ConcurrentHashMap<>();
  private final CallJournal journal;
  private final List<ToleratedFailure> tolerated = Collections.synchronizedList(new ArrayList<>());
  private final Optional<VisibleDevices> visible = VisibleDevices.fromEnvironment();
  private volatile boolean hasMallocWithCfg = true;

  public AscendRuntime(AscendLibraries libs) {
    this.libs = libs;
    this.acl = libs.acl();
    this.journal = libs.journal();
    DcmiCards cards = new DcmiCards(libs::dcmi, journal, this::hostDeviceId);
    this.monitor = new DcmiMonitor(cards);
    this.links = new DcmiLinkTelemetry(cards, this::peersOver);
    journal.onDevice(CallJournal.NO_DEVICE);
    int rc = acl.aclInit(null);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE) {
      throw error("aclInit", rc);
    }
  }

  public static AscendRuntime open(Backend backend) {
    return open(backend, CallJournal.NONE);
  }

  /** A runtime whose every native call is marked in {@code journal} (a worker's). */
  public static AscendRuntime open(Backend backend, CallJournal journal) {
    return new AscendRuntime(AscendLibraries.load(backend, journal));
  }

  @Override
  public Backend backend() {
    return libs.backend();
  }

  private DeviceException error(String function, int code) {
    return new DeviceException(function, code, acl.aclGetRecentErrMsg());
  }

  private void check(String function, int code) {
    if (code != ACL_SUCCESS) {
      throw error(function, code);
    }
  }

  /**
   * Keeps a failure the run can go on without. The message is drained either way, so it is not
   * attached to a later error.
   */
  private void tolerate(String call, String what, String detail) {
    String text = detail == null || detail.isBlank() ? what : what + ": " + detail.strip();
    log.debug("tolerated: {}", text);
    tolerated.add(new ToleratedFailure(call, text));
  }

  private void checkHccl(String function, int code) {
    if (code != 0) {
      throw new DeviceException(function, code, hcclDetail(code));
    }
  }

  /**
   * HCCL's text for a failure, and AscendCL's messages for it: HCCL works through the runtime, and
   * what it leaves in the thread's AscendCL messages would otherwise be handed out with the next
   * AscendCL error (aclGetRecentErrMsg: unread messages pile up until read).
   */
  private String hcclDetail(int code) {
    String text = hcclErrorString(code);
    String acl = this.acl.aclGetRecentErrMsg();
    if (acl == null || acl.isBlank()) {
      return text;
    }
    String flat = String.join("; ", acl.strip().lines().toList());
    return text == null ? flat : text + " (" + flat + ")";
  }

  /** HCCL's text for a code; none where the library lacks it (the 950 docs list it unsupported). */
  private String hcclErrorString(int code) {
    try {
      return libs.hcclComm().HcclGetErrorString(code);
    } catch (UnsatisfiedLinkError e) {
      return null;
    }
  }

  /** Makes {@code device} the calling thread's current device, once per thread and device. */
  private void use(int device) {
    journal.onDevice(device);
    Integer current = currentDevice.get();
    if (current == null || current != device) {
      check("aclrtSetDevice", acl.aclrtSetDevice(device));
      deviceUses.computeIfAbsent(device, d -> new AtomicInteger()).incrementAndGet();
      currentDevice.set(device);
    }
  }

  @Override
  public int deviceCount() {
    journal.onDevice(CallJournal.NO_DEVICE);
    IntByReference count = new IntByReference();
    check("aclrtGetDeviceCount", acl.aclrtGetDeviceCount(count));
    return count.getValue();
  }

  @Override
  public String socName() {
    journal.onDevice(CallJournal.NO_DEVICE);
    String name = acl.aclrtGetSocName();
    if (name == null) {
      tolerate(
          "aclrtGetSocName",
          "aclrtGetSocName returned no name; devices are named \"unknown\"",
          acl.aclGetRecentErrMsg());
      return "unknown";
    }
    return name;
  }

  @Override
  public MemoryInfo memoryInfo(int device) {
    use(device);
    LongByReference free = new LongByReference();
    LongByReference total = new LongByReference();
    check("aclrtGetMemInfo", acl.aclrtGetMemInfo(ACL_HBM_MEM, free, total));
    return new MemoryInfo(free.getValue(), total.getValue());
  }

  @Override
  public Optional<Integer> physicalId(int device) {
    journal.onDevice(device);
    IntByReference phy = new IntByReference();
    try {
      int rc = acl.aclrtGetPhyDevIdByLogicDevId(device, phy);
      if (rc != ACL_SUCCESS) {
        tolerate(
            "aclrtGetPhyDevIdByLogicDevId",
            "aclrtGetPhyDevIdByLogicDevId("
                + device
                + ") returned "
                + rc
                + "; device "
                + device
                + " has no phy_id",
            acl.aclGetRecentErrMsg());
        return Optional.empty();
      }
      return Optional.of(phy.getValue());
    } catch (UnsatisfiedLinkError e) {
      return Optional.empty();
    }
  }

  @Override
  public int hostDeviceId(int device) {
    return visible.map(v -> v.hostId(device)).orElse(device);
  }

  @Override
  public String linkTypeSource() {
    return "aclrtGetDevicesTopo";
  }

  @Override
  public Optional<LinkType> linkType(int device, int other) {
    journal.onDevice(device);
    LongByReference value = new LongByReference();
    try {
      int rc = acl.aclrtGetDevicesTopo(device, other, value);
      if (NOT_SUPPORTED.contains(rc)) {
        acl.aclGetRecentErrMsg();
        return Optional.empty();
      }
      check("aclrtGetDevicesTopo", rc);
      return Optional.of(LinkType.fromAclTopology(value.getValue()));
    } catch (UnsatisfiedLinkError e) {
      // Older CANN releases lack the symbol; the caller falls back to npu-smi.
      return Optional.empty();
    }
  }

  @Override
  public boolean canAccessPeer(int device, int peer) {
    journal.onDevice(device);
    IntByReference can = new IntByReference();
    check("aclrtDeviceCanAccessPeer", acl.aclrtDeviceCanAccessPeer(can, device, peer));
    return can.getValue() == 1;
  }

  @Override
  public void enablePeerAccess(int device, int peer) {
    long key = ((long) device << 32) | (peer & 0xffffffffL);
    if (peersEnabled.contains(key)) {
      return;
    }
    use(device);
    check("aclrtDeviceEnablePeerAccess", acl.aclrtDeviceEnablePeerAccess(peer, 0));
    peersEnabled.add(key);
  }

  @Override
  public DeviceBuffer allocate(int device, long bytes) {
    use(device);
    PointerByReference ptr = new PointerByReference();
    // Any buffer here may be copied to another device, and memory copied between devices takes a
    // *_P2P policy (aclrtMemMallocPolicy.md); a runtime may refuse or slow down other memory there.
    if (hasMallocWithCfg) {
      try {
        check(
            "aclrtMallocWithCfg",
            acl.aclrtMallocWithCfg(ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P, null));
      } catch (UnsatisfiedLinkError e) {
        // Releases before aclrtMallocWithCfg: aclrtMalloc takes the same policy.
        hasMallocWithCfg = false;
      }
    }
    if (!hasMallocWithCfg) {
      check("aclrtMalloc", acl.aclrtMalloc(ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    }
    Pointer p = ptr.getValue();
    return new DeviceBuffer(
        device, Pointer.nativeValue(p), bytes, () -> check("aclrtFree", acl.aclrtFree(p)));
  }

  @Override
  public HostBuffer allocatePinned(long bytes) {
    journal.onDevice(CallJournal.NO_DEVICE);
    PointerByReference ptr = new PointerByReference();
    check("aclrtMallocHost", acl.aclrtMallocHost(ptr, bytes));
    Pointer p = ptr.getValue();
    return new PointerHostBuffer(p, bytes, () -> check("aclrtFreeHost", acl.aclrtFreeHost(p)));
  }

  @Override
  public Optional<AutoCloseable> registerPinned(HostBuffer buffer) {
    journal.onDevice(CallJournal.NO_DEVICE);
    Pointer p = new Pointer(buffer.address());
    try {
      int rc = acl.aclrtHostRegisterV2(p, buffer.size(), ACL_HOST_REG_PINNED);
      if (NOT_SUPPORTED.contains(rc)) {
        acl.aclGetRecentErrMsg();
        return Optional.empty();
      }
      check("aclrtHostRegisterV2", rc);
    } catch (UnsatisfiedLinkError e) {
      return Optional.empty();
    }
    return Optional.of(() -> check("aclrtHostUnregister", acl.aclrtHostUnregister(p)));
  }

  @Override
  public DeviceStream createStream(int device) {
    use(device);
    PointerByReference ref = new PointerByReference();
    check("aclrtCreateStream", acl.aclrtCreateStream(ref));
    Pointer s = ref.getValue();
    // A stream is destroyed in its own device's context (aclrtDestroyStream: "the stream must be
    // in the current context"), whichever device the closing thread used last.
    return new DeviceStream(
        device,
        Pointer.nativeValue(s),
        () -> {
          use(device);
          check("aclrtDestroyStream", acl.aclrtDestroyStream(s));
        });
  }

  @Override
  public DeviceEvent createEvent(int device) {
    use(device);
    PointerByReference ref = new PointerByReference();
    check("aclrtCreateEvent", acl.aclrtCreateEvent(ref));
    Pointer e = ref.getValue();
    // Events too, though only streams have the rule in writing: they belong to the same context.
    return new DeviceEvent(
        device,
        Pointer.nativeValue(e),
        () -> {
          use(device);
          check("aclrtDestroyEvent", acl.aclrtDestroyEvent(e));
        });
  }

  private static int kind(Memory dst, Memory src) {
    boolean fromDevice = src instanceof DeviceBuffer;
    boolean toDevice = dst instanceof DeviceBuffer;
    if (fromDevice && toDevice) {
      return ACL_MEMCPY_DEVICE_TO_DEVICE;
    }
    if (toDevice) {
      return ACL_MEMCPY_HOST_TO_DEVICE;
    }
    return fromDevice ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST;
  }

  @Override
  public void copyAsync(
      Memory dst, long dstOffset, Memory src, long srcOffset, long bytes, DeviceStream stream) {
    use(stream.device());
    check(
        "aclrtMemcpyAsync",
        acl.aclrtMemcpyAsync(
            new Pointer(dst.address() + dstOffset),
            dst.size() - dstOffset,
            new Pointer(src.address() + srcOffset),
            bytes,
            kind(dst, src),
            new Pointer(stream.address())));
  }

  @Override
  public void copy(Memory dst, long dstOffset, Memory src, long srcOffset, long bytes) {
    if (src instanceof DeviceBuffer d) {
      use(d.device());
    } else if (dst instanceof DeviceBuffer d) {
      use(d.device());
    } else {
      journal.onDevice(CallJournal.NO_DEVICE);
    }
    check(
        "aclrtMemcpy",
        acl.aclrtMemcpy(
            new Pointer(dst.address() + dstOffset),
            dst.size() - dstOffset,
            new Pointer(src.address() + srcOffset),
            bytes,
            kind(dst, src)));
  }

  @Override
  public void record(DeviceEvent event, DeviceStream stream) {
    use(stream.device());
    check(
        "aclrtRecordEvent",
        acl.aclrtRecordEvent(new Pointer(event.address()), new Pointer(stream.address())));
  }

  @Override
  public void synchronize(DeviceStream stream) {
    use(stream.device());
    check("aclrtSynchronizeStream", acl.aclrtSynchronizeStream(new Pointer(stream.address())));
  }

  @Override
  public void waitFor(DeviceStream stream, DeviceEvent event) {
    use(stream.device());
    check(
        "aclrtStreamWaitEvent",
        acl.aclrtStreamWaitEvent(new Pointer(stream.address()), new Pointer(event.address())));
  }

  @Override
  public float elapsedMillis(DeviceEvent start, DeviceEvent end) {
    journal.onDevice(start.device());
    FloatByReference ms = new FloatByReference();
    check(
        "aclrtEventElapsedTime",
        acl.aclrtEventElapsedTime(ms, new Pointer(start.address()), new Pointer(end.address())));
    return ms.getValue();
  }

  @Override
  public List<Communicator> initCollective(int[] devices) {
    for (int d : devices) {
      use(d);
    }
    HcclLibrary comm = libs.hcclComm();
    Pointer[] comms = new Pointer[devices.length];
    checkHccl("HcclCommInitAll", comm.HcclCommInitAll(devices.length, devices.clone(), comms));
    List<Communicator> out = new ArrayList<>();
    for (int rank = 0; rank < devices.length; rank++) {
      Pointer c = comms[rank];
      int device = devices[rank];
      out.add(
          new Communicator(
              rank,
              devices[rank],
              Pointer.nativeValue(c),
              () -> destroyCommunicator(comm, c, device)));
    }
    return out;
  }

  /** A communicator that cannot be destroyed still measured correctly: tolerated, reported. */
  private void destroyCommunicator(HcclLibrary comm, Pointer c, int device) {
    journal.onDevice(device);
    int rc = comm.HcclCommDestroy(c);
    if (rc != 0) {
      tolerate(
          "HcclCommDestroy",
          "HcclCommDestroy (device " + device + ") returned " + rc,
          hcclDetail(rc));
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
    checkHccl(
        "HcclAllReduce",
        libs.hcclOps()
            .HcclAllReduce(
                new Pointer(send.address()),
                new Pointer(recv.address()),
                count,
                type.hcclValue(),
                HcclLibrary.HCCL_REDUCE_SUM,
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
    checkHccl(
        "HcclAllGather",
        libs.hcclOps()
            .HcclAllGather(
                new Pointer(send.address()),
                new Pointer(recv.address()),
                sendCount,
                type.hcclValue(),
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

  /**
   * The devices {@code device} reaches over one of {@code types}, ascending, from the topology
   * (asked once per device: it does not change while the driver runs).
   */
  private List<Integer> peersOver(int device, List<LinkType> types) {
    List<Integer> out = new ArrayList<>();
    for (int other = 0; other < deviceCount(); other++) {
      if (other == device) {
        continue;
      }
      int peer = other;
      Optional<LinkType> type =
          peerTypes
              .computeIfAbsent(device, d -> new ConcurrentHashMap<>())
              .computeIfAbsent(peer, p -> safeLinkType(device, p));
      if (type.isPresent() && types.contains(type.get())) {
        out.add(other);
      }
    }
    return out;
  }

  private Optional<LinkType> safeLinkType(int device, int other) {
    try {
      return linkType(device, other);
    } catch (DeviceException e) {
      return Optional.empty(); // the peer label becomes unknown; the counters are still read
    }
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

  /** Resets every device this runtime set, as many times as it set it, then finalizes. */
  @Override
  public void close() {
    deviceUses.forEach(
        (device, uses) -> {
          journal.onDevice(device);
          for (int i = 0; i < uses.get(); i++) {
            int rc = acl.aclrtResetDevice(device);
            if (rc != ACL_SUCCESS) {
              tolerate(
                  "aclrtResetDevice",
                  "aclrtResetDevice(" + device + ") returned " + rc,
                  acl.aclGetRecentErrMsg());
              break;
            }
          }
        });
    deviceUses.clear();
    journal.onDevice(CallJournal.NO_DEVICE);
    int rc = acl.aclFinalize();
    if (rc != ACL_SUCCESS) {
      tolerate("aclFinalize", "aclFinalize returned " + rc, acl.aclGetRecentErrMsg());
    }
  }
}
