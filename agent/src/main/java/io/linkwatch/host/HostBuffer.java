package io.linkwatch.host;

/**
 * Host memory a probe can fill and read back from Java: pinned memory from the device runtime, or
 * pageable memory mapped by the host layer.
 */
public interface HostBuffer extends Memory, AutoCloseable {
  void write(long offset, byte[] data, int length);

  void read(long offset, byte[] into, int length);

  @Override
  void close();
}
