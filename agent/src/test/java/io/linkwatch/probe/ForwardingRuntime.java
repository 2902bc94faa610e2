package io.linkwatch.probe;

import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.Memory;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.MemoryInfo;
import io.linkwatch.runtime.ToleratedFailure;
import java.util.List;
import java.util.Optional;

/**
 * A {@link DeviceRuntime} that passes every call to another one; tests override single calls to
 * break or observe them (a fake of the accelerator around the sim's real binding).
 */
public class ForwardingRuntime implements DeviceRuntime {
  final DeviceRuntime delegate;

  public ForwardingRuntime(DeviceRuntime delegate) {
    this.delegate = delegate;
  }

  @Override
  public Backend backend() {
    return delegate.backend();
  }

  @Override
  public int deviceCount() {
    return delegate.deviceCount();
  }

  @Override
  public String socName() {
    return delegate.socName();
  }

  @Override
  public MemoryInfo memoryInfo(int device) {
    return delegate.memoryInfo(device);
  }

  @Override
  public Optional<Integer> physicalId(int device) {
    return delegate.physicalId(device);
  }

  @Override
  public Optional<String> uuid(int device) {
    return delegate.uuid(device);
  }

  @Override
  public int hostDeviceId(int device) {
    return delegate.hostDeviceId(device);
  }

  @Override
  public Optional<String> pciBusId(int device) {
    return delegate.pciBusId(device);
  }

  @Override
  public Optional<LinkType> linkType(int device, int other) {
    return delegate.linkType(device, other);
  }

  @Override
  public String linkTypeSource() {
    return delegate.linkTypeSource();
  }

  @Override
  public io.linkwatch.runtime.PinnedMemoryCalls pinnedMemoryCalls() {
    return delegate.pinnedMemoryCalls();
  }

  @Override
  public boolean canAccessPeer(int device, int peer) {
    return delegate.canAccessPeer(device, peer);
  }

  @Override
  public void enablePeerAccess(int device, int peer) {
    delegate.enablePeerAccess(device, peer);
  }

  @Override
  public DeviceBuffer allocate(int device, long bytes) {
    return delegate.allocate(device, bytes);
  }

  @Override
  public HostBuffer allocatePinned(long bytes) {
    return delegate.allocatePinned(bytes);
  }

  @Override
  public Optional<AutoCloseable> registerPinned(HostBuffer buffer) {
    return delegate.registerPinned(buffer);
  }

  @Override
  public DeviceStream createStream(int device) {
    return delegate.createStream(device);
  }

  @Override
  public DeviceEvent createEvent(int device) {
    return delegate.createEvent(device);
  }

  @Override
  public void copyAsync(
      Memory dst, long dstOffset, Memory src, long srcOffset, long bytes, DeviceStream stream) {
    delegate.copyAsync(dst, dstOffset, src, srcOffset, bytes, stream);
  }

  @Override
  public void copy(Memory dst, long dstOffset, Memory src, long srcOffset, long bytes) {
    delegate.copy(dst, dstOffset, src, srcOffset, bytes);
  }

  @Override
  public void record(DeviceEvent event, DeviceStream stream) {
    delegate.record(event, stream);
  }

  @Override
  public void synchronize(DeviceStream stream) {
    delegate.synchronize(stream);
  }

  @Override
  public void waitFor(DeviceStream stream, DeviceEvent event) {
    delegate.waitFor(stream, event);
  }

  @Override
  public float elapsedMillis(DeviceEvent start, DeviceEvent end) {
    return delegate.elapsedMillis(start, end);
  }

  @Override
  public List<Communicator> initCollective(int[] devices) {
    return delegate.initCollective(devices);
  }

  @Override
  public byte[] collectiveRootInfo(int device) {
    return delegate.collectiveRootInfo(device);
  }

  @Override
  public Communicator joinCollective(byte[] rootInfo, int ranks, int rank, int device) {
    return delegate.joinCollective(rootInfo, ranks, rank, device);
  }

  @Override
  public void allReduceSum(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      Communicator comm,
      DeviceStream stream) {
    delegate.allReduceSum(send, recv, count, type, comm, stream);
  }

  @Override
  public void exchange(
      DeviceBuffer send,
      DeviceBuffer recv,
      long count,
      DataType type,
      int peer,
      Communicator comm,
      DeviceStream stream) {
    delegate.exchange(send, recv, count, type, peer, comm, stream);
  }

  @Override
  public void allGather(
      DeviceBuffer send,
      DeviceBuffer recv,
      long sendCount,
      DataType type,
      Communicator comm,
      DeviceStream stream) {
    delegate.allGather(send, recv, sendCount, type, comm, stream);
  }

  @Override
  public io.linkwatch.runtime.DeviceMonitor monitor() {
    return delegate.monitor();
  }

  @Override
  public io.linkwatch.runtime.LinkTelemetry linkTelemetry() {
    return delegate.linkTelemetry();
  }

  @Override
  public Optional<Long> liveAllocations() {
    return delegate.liveAllocations();
  }

  @Override
  public List<ToleratedFailure> toleratedFailures() {
    return delegate.toleratedFailures();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
