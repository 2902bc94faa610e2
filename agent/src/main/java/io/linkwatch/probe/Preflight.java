package io.linkwatch.probe;

import io.linkwatch.host.HostPaths;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;
import java.util.Collection;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * What a one-shot run checks against this machine before any device work: that the devices a
 * setting names exist and that buffers fit in every device's memory. The agent does not: its file
 * may be checked on another machine, and there such a mistake makes the targets fail with the
 * reason instead.
 */
public final class Preflight {
  private final DeviceRuntime runtime;
  private final HostPaths host;
  private final BiConsumer<String, String> problems;

  /**
   * @param problems receives (setting key, reason)
   */
  public Preflight(DeviceRuntime runtime, HostPaths host, BiConsumer<String, String> problems) {
    this.runtime = runtime;
    this.host = host;
    this.problems = problems;
  }

  public HostPaths host() {
    return host;
  }

  public void problem(String key, String reason) {
    problems.accept(key, reason);
  }

  /** E.g. {@code no device 9 (found 2)}. */
  public void devicesExist(String key, Collection<Integer> devices) {
    int count = runtime.deviceCount();
    for (int d : devices) {
      if (d >= count) {
        problem(key, "no device " + d + " (found " + count + ")");
      }
    }
  }

  /** E.g. {@code 1TiB is more than device 0's memory (64GiB)}. */
  public void sizesFit(String key, List<Long> sizes) {
    sizesFit(key, sizes, 1);
  }

  /**
   * As {@link #sizesFit(String, List)} for a probe that puts {@code buffers} buffers of each size
   * on a device, e.g. {@code 40GiB (2 buffers of it per device) is more than device 0's memory}.
   */
  public void sizesFit(String key, List<Long> sizes, int buffers) {
    int count = runtime.deviceCount();
    for (int d = 0; d < count; d++) {
      long total = runtime.memoryInfo(d).totalBytes();
      for (long size : sizes) {
        if (size * buffers > total) {
          problem(
              key,
              ByteSize.format(size)
                  + (buffers > 1 ? " (" + buffers + " buffers of it per device)" : "")
                  + " is more than device "
                  + d
                  + "'s memory ("
                  + ByteSize.format(total)
                  + ")");
          return;
        }
      }
    }
  }
}
