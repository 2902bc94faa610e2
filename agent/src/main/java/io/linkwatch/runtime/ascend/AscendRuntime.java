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
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.ToleratedFailure;
import io.linkwatch.runtime.binding.NativeRuntime;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link DeviceRuntime} over AscendCL and HCCL. The same code runs against CANN and against the
 * sim: only the loaded library differs. Every non-zero return becomes a {@link DeviceException}
 * with {@code aclGetRecentErrMsg}'s (or {@code HcclGetErrorString}'s) text, except where the run
 * can go on: those become {@link ToleratedFailure}s. Each call tells the {@link CallJournal} the
 * device it concerns, so a hang or crash can be placed on a device.
 */
public final class AscendRuntime extends NativeRuntime {
  /**
   * Every code AscendCL documents for "not supported" (aclError.md): ACL_ERROR_API_NOT_SUPPORT (the
   * interface), ACL_ERROR_FEATURE_UNSUPPORTED (the feature), ACL_ERROR_RT_FEATURE_NOT_SUPPORT (the
   * feature, from the runtime). A call answered with one of them has a fallback, not a failure.
   */
  static final Set<Integer> NOT_SUPPORTED = Set.of(200001, 200006, 207000);

  private final AscendLibraries libs;
  private final AclLibrary acl;
  private final Map<Integer, AtomicInteger> deviceUses = new ConcurrentHashMap<>();
  private final Map<Integer, Map<Integer, Optional<LinkType>>> peerTypes =
      new ConcurrentHashMap<>();
  private final Optional<VisibleDevices> visible = VisibleDevices.fromEnvironment();
  private volatile boolean hasMallocWithCfg = true;

  public AscendRuntime(AscendLibraries libs) {
    super(libs.backend(), libs.sim(), libs.journal());
    this.libs = libs;
    this.acl = libs.acl();
    DcmiCards cards = new DcmiCards(libs::dcmi, journal, this::hostDeviceId);
    telemetry(new DcmiMonitor(cards), new DcmiLinkTelemetry(cards, this::peersOver));
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

  /** The thread's recent AscendCL messages, whatever the code. */
  @Override
  protected String errorDetail(int code) {
    return acl.aclGetRecentErrMsg();
  }

  @Override
  protected String collectiveDetail(int code) {
    return hcclDetail(code);
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

  /** Sets the device on the calling thread, counted: {@link #close()} resets it as often. */
  @Override
  protected void setCurrent(int device) {
    check("aclrtSetDevice", acl.aclrtSetDevice(device));
    deviceUses.computeIfAbsent(device, d -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  protected int countDevices() {
    return intOut("aclrtGetDeviceCount", acl::aclrtGetDeviceCount);
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
  protected void readMemoryInfo(LongByReference free, LongByReference total) {
    check("aclrtGetMemInfo", acl.aclrtGetMemInfo(ACL_HBM_MEM, free, total));
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
  public String linkTypeSource() {
    return "aclrtGetDevicesTopo";
  }

  @Override
  protected int peerAccess(int device, int peer) {
    return intOut(
        "aclrtDeviceCanAccessPeer", can -> acl.aclrtDeviceCanAccessPeer(can, device, peer));
  }

  @Override
  protected void enablePeer(int device, int peer) {
    use(device);
    check("aclrtDeviceEnablePeerAccess", acl.aclrtDeviceEnablePeerAccess(peer, 0));
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
  protected Pointer allocateHost(long bytes) {
    journal.onDevice(CallJournal.NO_DEVICE);
    return pointerOut("aclrtMallocHost", ptr -> acl.aclrtMallocHost(ptr, bytes));
  }

  @Override
  protected void freeHost(Pointer p) {
    check("aclrtFreeHost", acl.aclrtFreeHost(p));
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
  protected Pointer newStream() {
    return pointerOut("aclrtCreateStream", acl::aclrtCreateStream);
  }

  @Override
  protected void synchronizeStream(Pointer stream) {
    check("aclrtSynchronizeStream", acl.aclrtSynchronizeStream(stream));
  }

  @Override
  protected void waitEvent(Pointer stream, Pointer event) {
    check("aclrtStreamWaitEvent", acl.aclrtStreamWaitEvent(stream, event));
  }

  @Override
  protected void destroyStream(Pointer stream) {
    check("aclrtDestroyStream", acl.aclrtDestroyStream(stream));
  }

  @Override
  protected Pointer newEvent() {
    return pointerOut("aclrtCreateEvent", acl::aclrtCreateEvent);
  }

  @Override
  protected void recordEvent(Pointer event, Pointer stream) {
    check("aclrtRecordEvent", acl.aclrtRecordEvent(event, stream));
  }

  /** Timing needs no current device: the journal is told the events' one. */
  @Override
  protected void elapsedTime(FloatByReference ms, int device, Pointer start, Pointer end) {
    journal.onDevice(device);
    check("aclrtEventElapsedTime", acl.aclrtEventElapsedTime(ms, start, end));
  }

  @Override
  protected void destroyEvent(Pointer event) {
    check("aclrtDestroyEvent", acl.aclrtDestroyEvent(event));
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
  protected Pointer[] initCommunicators(int[] devices) {
    for (int d : devices) {
      use(d);
    }
    HcclLibrary comm = libs.hcclComm();
    Pointer[] comms = new Pointer[devices.length];
    checkCollective(
        "HcclCommInitAll", comm.HcclCommInitAll(devices.length, devices.clone(), comms));
    return comms;
  }

  @Override
  protected byte[] rootInfo() {
    byte[] info = new byte[HcclLibrary.ROOT_INFO_BYTES];
    checkCollective("HcclGetRootInfo", libs.hcclComm().HcclGetRootInfo(info));
    return info;
  }

  @Override
  protected Pointer initRank(byte[] rootInfo, int ranks, int rank) {
    if (rootInfo.length != HcclLibrary.ROOT_INFO_BYTES) {
      throw new IllegalArgumentException(
          "an HCCL root info is " + HcclLibrary.ROOT_INFO_BYTES + " bytes, not " + rootInfo.length);
    }
    PointerByReference comm = new PointerByReference();
    checkCollective(
        "HcclCommInitRootInfo", libs.hcclComm().HcclCommInitRootInfo(ranks, rootInfo, rank, comm));
    return comm.getValue();
  }

  /** A communicator that cannot be destroyed still measured correctly: tolerated, reported. */
  @Override
  protected void destroyCommunicator(Pointer c, int device) {
    journal.onDevice(device);
    int rc = libs.hcclComm().HcclCommDestroy(c);
    if (rc != 0) {
      tolerate(
          "HcclCommDestroy",
          "HcclCommDestroy (device " + device + ") returned " + rc,
          hcclDetail(rc));
    }
  }

  @Override
  protected void reduceSum(
      Pointer send, Pointer recv, long count, DataType type, Pointer comm, Pointer stream) {
    int op = HcclLibrary.HCCL_REDUCE_SUM;
    checkCollective(
        "HcclAllReduce",
        libs.hcclOps().HcclAllReduce(send, recv, count, type.hcclValue(), op, comm, stream));
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
    HcclLibrary ops = libs.hcclOps();
    if (recv == null) {
      checkCollective("HcclSend", ops.HcclSend(send, count, type.hcclValue(), peer, comm, stream));
    } else if (send == null) {
      checkCollective("HcclRecv", ops.HcclRecv(recv, count, type.hcclValue(), peer, comm, stream));
    } else {
      HcclLibrary.SendRecvItem[] items =
          (HcclLibrary.SendRecvItem[]) new HcclLibrary.SendRecvItem().toArray(2);
      fill(items[0], HcclLibrary.HCCL_SEND, send, count, type, peer);
      fill(items[1], HcclLibrary.HCCL_RECV, recv, count, type, peer);
      checkCollective("HcclBatchSendRecv", ops.HcclBatchSendRecv(items, 2, comm, stream));
    }
  }

  private static void fill(
      HcclLibrary.SendRecvItem item, int kind, Pointer buf, long count, DataType type, int peer) {
    item.sendRecvType = kind;
    item.buf = buf;
    item.count = count;
    item.dataType = type.hcclValue();
    item.remoteRank = peer;
  }

  @Override
  protected void gather(
      Pointer send, Pointer recv, long sendCount, DataType type, Pointer comm, Pointer stream) {
    checkCollective(
        "HcclAllGather",
        libs.hcclOps().HcclAllGather(send, recv, sendCount, type.hcclValue(), comm, stream));
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
