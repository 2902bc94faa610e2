package io.linkwatch.runtime.binding;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.linkwatch.host.HostBuffer;
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
import io.linkwatch.runtime.MemoryInfo;
import io.linkwatch.runtime.ToleratedFailure;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the vendor runtimes (AscendCL with HCCL, the CUDA driver with NCCL) share: the calling
 * thread's current device, the {@link CallJournal} told the device of every call, failures turned
 * into {@link DeviceException}s or kept as {@link ToleratedFailure}s, and every {@link
 * DeviceRuntime} call whose steps are the same for both: streams, events, peer access, pinned
 * memory, collectives. A vendor gives the native call of each step (one protected method each) and
 * the calls whose logic is its own.
 *
 * <p>Every native call returns its library's code, 0 for success (ACL_SUCCESS, CUDA_SUCCESS,
 * HCCL_SUCCESS, ncclSuccess); {@link #check} and {@link #checkCollective} turn any other into a
 * {@link DeviceException} with the vendor's text for it.
 */
public abstract class NativeRuntime implements DeviceRuntime {
  private final Logger log = LoggerFactory.getLogger(getClass());

  protected final CallJournal journal;
  private final Backend backend;
  private final Optional<SimLibrary> sim;
  private final ThreadLocal<Integer> currentDevice = new ThreadLocal<>();
  private final Set<Long> peersEnabled = ConcurrentHashMap.newKeySet();
  private final List<ToleratedFailure> tolerated = Collections.synchronizedList(new ArrayList<>());
  private DeviceMonitor monitor;
  private LinkTelemetry links;

  protected NativeRuntime(Backend backend, Optional<SimLibrary> sim, CallJournal journal) {
    this.backend = backend;
    this.sim = sim;
    this.journal = journal;
  }

  /** The vendor's activity and link readings; set once, in the vendor's constructor. */
  protected final void telemetry(DeviceMonitor monitor, LinkTelemetry links) {
    this.monitor = monitor;
    this.links = links;
  }

  // ---- failures ----

  /** The vendor's text for a failed runtime call's code (e.g. the thread's recent messages). */
  protected abstract String errorDetail(int code);

  /** The collective library's text for a failed collective call's code. */
  protected abstract String collectiveDetail(int code);

  protected final DeviceException error(String function, int code) {
    return new DeviceException(function, code, errorDetail(code));
  }

  protected final void check(String function, int code) {
    if (code != 0) {
      throw error(function, code);
    }
  }

  protected final void checkCollective(String function, int code) {
    if (code != 0) {
      throw new DeviceException(function, code, collectiveDetail(code));
    }
  }

  /** Keeps a failure the run can go on without. */
  protected final void tolerate(String call, String text) {
    log.debug("tolerated: {}", text);
    tolerated.add(new ToleratedFailure(call, text));
  }

  /**
   * Keeps a failure the run can go on without, with the library's {@code detail} (none where null
   * or blank). Callers drain the detail either way, so it is not attached to a later error.
   */
  protected final void tolerate(String call, String what, String detail) {
    tolerate(call, detail == null || detail.isBlank() ? what : what + ": " + detail.strip());
  }

  /** The value a checked call writes through an int out-parameter. */
  protected final int intOut(String function, ToIntFunction<IntByReference> call) {
    IntByReference out = new IntByReference();
    check(function, call.applyAsInt(out));
    return out.getValue();
  }

  /** The pointer a checked call writes through a pointer out-parameter. */
  protected final Pointer pointerOut(String function, ToIntFunction<PointerByReference> call) {
    PointerByReference out = new PointerByReference();
    check(function, call.applyAsInt(out));
    return out.getValue();
  }

  // ---- the current device ----

  /** What a device needs before its first call on any thread; nothing by default. */
  protected void retain(int device) {}

  /** Makes {@code device} current on the calling thread (it is not). */
  protected abstract void setCurrent(int device);

  /** Makes {@code device} the calling thread's current device, once per change of device. */
  protected final void use(int device) {
    retain(device);
    journal.onDevice(device);
    Integer current = currentDevice.get();
    if (current == null || current != device) {
      setCurrent(device);
      currentDevice.set(device);
    }
  }

  /** The calling thread's current device; null before its first {@link #use}. */
  protected final Integer currentDevice() {
    return currentDevice.get();
  }

  // ---- the native steps of the shared calls ----

  protected abstract int countDevices();

  protected abstract void readMemoryInfo(LongByReference free, LongByReference total);

  /** 1 where {@code device} can reach {@code peer}'s memory. */
  protected abstract int peerAccess(int device, int peer);

  /** Lets {@code device} reach {@code peer}'s memory, making {@code device} current. */
  protected abstract void enablePeer(int device, int peer);

  /** Pinned host memory, its device context or journal entry included. */
  protected abstract Pointer allocateHost(long bytes);

  protected abstract void freeHost(Pointer p);

  /** A stream on the current device. */
  protected abstract Pointer newStream();

  protected abstract void destroyStream(Pointer stream);

  /** An event on the current device. */
  protected abstract Pointer newEvent();

  protected abstract void destroyEvent(Pointer event);

  protected abstract void recordEvent(Pointer event, Pointer stream);

  protected abstract void synchronizeStream(Pointer stream);

  protected abstract void waitEvent(Pointer stream, Pointer event);

  /** The time between two events of {@code device} into {@code ms}. */
  protected abstract void elapsedTime(FloatByReference ms, int device, Pointer start, Pointer end);

  /** One communicator per device, in the order of {@code devices}. */
  protected abstract Pointer[] initCommunicators(int[] devices);

  /** {@link DeviceRuntime#collectiveRootInfo}'s blob, on the current device. */
  protected abstract byte[] rootInfo();

  /** One rank of a group spread over processes, on the current device. */
  protected abstract Pointer initRank(byte[] rootInfo, int ranks, int rank);

  /** Destroys a communicator of {@code device}; a failure is tolerated. */
  protected abstract void destroyCommunicator(Pointer comm, int device);

  /** Sum-allreduce of {@code count} elements, on the current device. */
  protected abstract void reduceSum(
      Pointer send, Pointer recv, long count, DataType type, Pointer comm, Pointer stream);

  /**
   * Point to point with rank {@code peer}, on the current device: {@code send}, {@code recv} or
   * both (null: no such direction), the two directions at once.
   */
  protected abstract void pointToPoint(
      Pointer send,
      Pointer recv,
      long count,
      DataType type,
      int peer,
      Pointer comm,
      Pointer stream);

  /** Allgather of {@code sendCount} elements from each rank, on the current device. */
  protected abstract void gather(
      Pointer send, Pointer recv, long sendCount, DataType type, Pointer comm, Pointer stream);

  // ---- the shared calls ----

  @Override
  public final Backend backend() {
    return backend;
  }

  @Override
  public final int deviceCount() {
    journal.onDevice(CallJournal.NO_DEVICE);
    return countDevices();
  }

  @Override
  public final MemoryInfo memoryInfo(int device) {
    use(device);
    LongByReference free = new LongByReference();
    LongByReference total = new LongByReference();
    readMemoryInfo(free, total);
    return new MemoryInfo(free.getValue(), total.getValue());
  }

  @Override
  public final boolean canAccessPeer(int device, int peer) {
    journal.onDevice(device);
    return peerAccess(device, peer) == 1;
  }

  @Override
  public final void enablePeerAccess(int device, int peer) {
    long key = ((long) device << 32) | (peer & 0xffffffffL);
    if (peersEnabled.contains(key)) {
      return;
    }
    enablePeer(device, peer);
    peersEnabled.add(key);
  }

  @Override
  public final HostBuffer allocatePinned(long bytes) {
    Pointer p = allocateHost(bytes);
    return new PointerHostBuffer(p, bytes, () -> freeHost(p));
  }

  @Override
  public final DeviceStream createStream(int device) {
    use(device);
    Pointer s = newStream();
    return new DeviceStream(
        device, Pointer.nativeValue(s), inContext(device, s, this::destroyStream));
  }

  @Override
  public final DeviceEvent createEvent(int device) {
    use(device);
    Pointer e = newEvent();
    return new DeviceEvent(
        device, Pointer.nativeValue(e), inContext(device, e, this::destroyEvent));
  }

  /**
   * The release of a handle of {@code device}, run in that device's context: a stream is destroyed
   * in its own device's context (aclrtDestroyStream: "the stream must be in the current context"),
   * whichever device the closing thread used last. Events too, though only streams have the rule in
   * writing: they belong to the same context.
   */
  private Runnable inContext(int device, Pointer handle, Consumer<Pointer> destroy) {
    return () -> {
      use(device);
      destroy.accept(handle);
    };
  }

  @Override
  public final void record(DeviceEvent event, DeviceStream stream) {
    use(stream.device());
    recordEvent(new Pointer(event.address()), new Pointer(stream.address()));
  }

  @Override
  public final void synchronize(DeviceStream stream) {
    use(stream.device());
    synchronizeStream(new Pointer(stream.address()));
  }

  @Override
  public final void waitFor(DeviceStream stream, DeviceEvent event) {
    use(stream.device());
    waitEvent(new Pointer(stream.address()), new Pointer(event.address()));
  }

  @Override
  public final float elapsedMillis(DeviceEvent start, DeviceEvent end) {
    FloatByReference ms = new FloatByReference();
    elapsedTime(ms, start.device(), new Pointer(start.address()), new Pointer(end.address()));
    return ms.getValue();
  }

  @Override
  public final List<Communicator> initCollective(int[] devices) {
    Pointer[] comms = initCommunicators(devices);
    List<Communicator> out = new ArrayList<>();
    for (int rank = 0; rank < devices.length; rank++) {
      Pointer c = comms[rank];
      int device = devices[rank];
      out.add(
          new Communicator(
              rank, device, Pointer.nativeValue(c), () -> destroyCommunicator(c, device)));
    }
    return out;
  }

  @Override
  public final byte[] collectiveRootInfo(int device) {
    use(device);
    return rootInfo();
  }

  @Override
  public final Communicator joinCollective(byte[] rootInfo, int ranks, int rank, int device) {
    use(device);
    Pointer c = initRank(rootInfo.clone(), ranks, rank);
    return new Communicator(
        rank, device, Pointer.nativeValue(c), () -> destroyCommunicator(c, device));
  }

  @Override
  public final void allReduceSum(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      Communicator comm,
      DeviceStream stream) {
    use(comm.device());
    reduceSum(
        new Pointer(send.address()),
        new Pointer(recv.address()),
        count,
        type,
        new Pointer(comm.address()),
        new Pointer(stream.address()));
  }

  @Override
  public final void exchange(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      int peer,
      Communicator comm,
      DeviceStream stream) {
    if (send == null && recv == null) {
      throw new IllegalArgumentException("an exchange sends, receives or both");
    }
    use(comm.device());
    pointToPoint(
        send == null ? null : new Pointer(send.address()),
        recv == null ? null : new Pointer(recv.address()),
        count,
        type,
        peer,
        new Pointer(comm.address()),
        new Pointer(stream.address()));
  }

  @Override
  public final void allGather(
      DeviceBuffer send,
      DeviceBuffer recv,
      long sendCount,
      DataType type,
      Communicator comm,
      DeviceStream stream) {
    use(comm.device());
    gather(
        new Pointer(send.address()),
        new Pointer(recv.address()),
        sendCount,
        type,
        new Pointer(comm.address()),
        new Pointer(stream.address()));
  }

  @Override
  public final DeviceMonitor monitor() {
    return monitor;
  }

  @Override
  public final LinkTelemetry linkTelemetry() {
    return links;
  }

  @Override
  public final Optional<Long> liveAllocations() {
    return sim.map(SimLibrary::linkwatch_sim_live_allocations);
  }

  @Override
  public final List<ToleratedFailure> toleratedFailures() {
    synchronized (tolerated) {
      return List.copyOf(tolerated);
    }
  }
}
