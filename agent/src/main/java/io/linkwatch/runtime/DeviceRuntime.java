package io.linkwatch.runtime;

import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.Memory;
import java.util.List;
import java.util.Optional;

/**
 * The accelerator as probes see it: devices, memory, streams, events, copies and collectives. It is
 * the only way probes reach a device. Every failing call throws {@link DeviceException}; every
 * resource it hands out is a {@link Handle} or {@link HostBuffer} the caller closes.
 *
 * <p>Calls that take a device make it the calling thread's current device first, as AscendCL's
 * per-thread device model requires. A failing cleanup call ({@link Handle#close()} of a
 * communicator, {@link #close()}) or an inventory call with a stand-in answer ({@link #socName()},
 * {@link #physicalId}) does not throw: it is kept in {@link #toleratedFailures()}.
 */
public interface DeviceRuntime extends AutoCloseable {
  Backend backend();

  int deviceCount();

  /** The SoC name, e.g. {@code Ascend910_9382}. */
  String socName();

  MemoryInfo memoryInfo(int device);

  /** The physical id of a logical device, or empty when the runtime cannot tell. */
  Optional<Integer> physicalId(int device);

  /**
   * The number tools outside this process (DCMI, npu-smi) know {@code device} by. It differs from
   * the runtime's where the runtime renumbers a subset of the host's devices (Ascend's {@code
   * ASCEND_RT_VISIBLE_DEVICES}).
   *
   * @throws IllegalArgumentException when the device has no such number
   */
  default int hostDeviceId(int device) {
    return device;
  }

  /**
   * The device's UUID as the vendor's management library spells it (NVML: {@code GPU-...}), the id
   * NVIDIA's Kubernetes device plugin reports to the kubelet; empty where the runtime has none.
   */
  default Optional<String> uuid(int device) {
    return Optional.empty();
  }

  /**
   * The device's PCI address in sysfs form ({@code 0000:18:00.0}), which leads to its NUMA node and
   * local CPUs under {@code /sys/bus/pci/devices}; empty where the runtime does not give it
   * (AscendCL).
   */
  default Optional<String> pciBusId(int device) {
    return Optional.empty();
  }

  /** The link between two devices as the runtime reports it, or empty when it cannot tell. */
  Optional<LinkType> linkType(int device, int other);

  /**
   * Where {@link #linkType} gets its answers, as topology results name their source: {@code
   * aclrtGetDevicesTopo}, {@code nvml}.
   */
  String linkTypeSource();

  boolean canAccessPeer(int device, int peer);

  /** Lets {@code device} reach {@code peer}'s memory; enabling twice is harmless. */
  void enablePeerAccess(int device, int peer);

  DeviceBuffer allocate(int device, long bytes);

  /** Page-locked host memory from the device runtime ({@code aclrtMallocHost}). */
  HostBuffer allocatePinned(long bytes);

  /**
   * Page-locks existing host memory ({@code aclrtHostRegisterV2}). Empty when the library lacks the
   * call; the returned handle unregisters on close.
   */
  Optional<AutoCloseable> registerPinned(HostBuffer buffer);

  /** The calls behind the two pinned-memory methods above, for results to name. */
  default PinnedMemoryCalls pinnedMemoryCalls() {
    return PinnedMemoryCalls.ASCEND;
  }

  DeviceStream createStream(int device);

  DeviceEvent createEvent(int device);

  void copyAsync(
      Memory dst, long dstOffset, Memory src, long srcOffset, long bytes, DeviceStream stream);

  /** A synchronous copy, for filling and checking buffers outside the timed path. */
  void copy(Memory dst, long dstOffset, Memory src, long srcOffset, long bytes);

  void record(DeviceEvent event, DeviceStream stream);

  void synchronize(DeviceStream stream);

  /**
   * Later work on {@code stream} starts only after {@code event} completes ({@code
   * aclrtStreamWaitEvent}): how two streams are lined up to start together or joined at the end.
   */
  void waitFor(DeviceStream stream, DeviceEvent event);

  /** Device time between two recorded events, in milliseconds. */
  float elapsedMillis(DeviceEvent start, DeviceEvent end);

  /** One communicator per device, all of one group ({@code HcclCommInitAll}). */
  List<Communicator> initCollective(int[] devices);

  /**
   * The opaque blob that lets ranks in other processes, on other hosts, join a group whose rank 0
   * is in this process ({@code HcclGetRootInfo}, 4,108 bytes; {@code ncclGetUniqueId}, 128 bytes).
   * Carrying it to them is the caller's business.
   */
  byte[] collectiveRootInfo(int device);

  /**
   * This process's rank {@code rank} of {@code ranks}, on {@code device}, of the group {@code
   * rootInfo} names ({@code HcclCommInitRootInfo}, {@code ncclCommInitRank}). Blocks until every
   * rank has joined or the library's connect timeout passes; call it for every local rank at once,
   * each from its own thread.
   */
  Communicator joinCollective(byte[] rootInfo, int ranks, int rank, int device);

  /** Sum-allreduce of {@code count} elements; call it from one thread per rank. */
  void allReduceSum(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      Communicator comm,
      DeviceStream stream);

  /**
   * Point to point with rank {@code peer} of {@code comm}'s group: sends {@code send}, receives
   * into {@code recv}, or both ({@code count} elements each way; null: no such direction). With
   * both, the two directions move at once ({@code HcclBatchSendRecv}; NCCL: a send and a receive in
   * one group). The peer makes the matching call; a send returns once the peer has the data.
   */
  void exchange(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      int peer,
      Communicator comm,
      DeviceStream stream);

  /**
   * Allgather of {@code sendCount} elements from every rank: {@code recv} receives rank k's {@code
   * send} at block k, so it holds {@code n * sendCount} elements. Call it from one thread per rank.
   */
  void allGather(
      DeviceBuffer send,
      DeviceBuffer recv,
      long sendCount,
      DataType type,
      Communicator comm,
      DeviceStream stream);

  /**
   * Who else uses the devices (DCMI on Ascend), read without opening a context on them. Its library
   * loads on first use; a missing one fails that call, not this runtime.
   */
  DeviceMonitor monitor();

  /**
   * The link counters of the devices (HCCS, SIO, NVLink, PCIe replays), read without a context:
   * what the passive watcher reads while jobs run. Its library loads on first use.
   */
  LinkTelemetry linkTelemetry();

  /** Resource counts that the sim keeps, for leak checks; empty on real hardware. */
  Optional<Long> liveAllocations();

  /**
   * The calls that failed so far without failing the run (cleanup, inventory with a stand-in),
   * including those of {@link #close()}.
   */
  List<ToleratedFailure> toleratedFailures();

  @Override
  void close();
}
