package io.linkwatch.probe;

import io.linkwatch.host.HostMemory;
import io.linkwatch.host.HostPaths;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What a one-shot run checks against this machine before any device work: that the devices a
 * setting names exist and that buffers fit in every device's memory. The agent does not: its file
 * may be checked on another machine, and there such a mistake makes the targets fail with the
 * reason instead.
 *
 * <p>The one exception is host memory ({@link #hostMemoryFits}): a size the host cannot back does
 * not fail a target, it gets the process OOM-killed after it has taken the host's memory, so {@code
 * check-config} holds the file to it too, through {@link #hostOnly}, which leaves out the checks of
 * devices and NUMA nodes.
 */
public final class Preflight {
  private final DeviceRuntime runtime;
  private final Backend backend;
  private final HostPaths host;
  private final BiConsumer<String, String> problems;

  /** The keys with a problem so far: a size a device cannot hold is not held to the host too. */
  private final Set<String> refused = new HashSet<>();

  /**
   * @param problems receives (setting key, reason)
   */
  public Preflight(DeviceRuntime runtime, HostPaths host, BiConsumer<String, String> problems) {
    this(runtime, runtime.backend(), host, problems);
  }

  private Preflight(
      DeviceRuntime runtime, Backend backend, HostPaths host, BiConsumer<String, String> problems) {
    this.runtime = runtime;
    this.backend = backend;
    this.host = host;
    this.problems =
        (key, reason) -> {
          refused.add(key);
          problems.accept(key, reason);
        };
  }

  /**
   * Only the host-memory checks, for a configuration file read without opening its backend ({@code
   * check-config}): the devices and NUMA nodes it names may be another machine's, and their checks,
   * {@link #problem} included, report nothing here.
   */
  public static Preflight hostOnly(
      Backend backend, HostPaths host, BiConsumer<String, String> problems) {
    return new Preflight(null, backend, host, problems);
  }

  /** Whether the devices are at hand (a one-shot run), not just the host ({@link #hostOnly}). */
  public boolean machine() {
    return runtime != null;
  }

  /**
   * How many ranks a group of {@code devices} has: their number, or, for none (every device), the
   * runtime's device count, or two (the least a group has) where no runtime is open.
   */
  public int groupSize(Collection<Integer> devices) {
    if (!devices.isEmpty()) {
      return devices.size();
    }
    return machine() ? runtime.deviceCount() : 2;
  }

  /** The backend the settings are for. */
  public Backend backend() {
    return backend;
  }

  public HostPaths host() {
    return host;
  }

  public void problem(String key, String reason) {
    if (machine()) {
      problems.accept(key, reason);
    }
  }

  /** E.g. {@code no device 9 (found 2)}. */
  public void devicesExist(String key, Collection<Integer> devices) {
    if (!machine()) {
      return;
    }
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
    if (!machine()) {
      return;
    }
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

  /**
   * That the host can back {@code hostBuffers} buffers of each size on every backend (pinned or
   * pageable host buffers) and, on a simulated backend, {@code simDeviceBuffers} more: the sim
   * backs device memory with host memory. Held to {@code MemAvailable}; nothing is checked where it
   * cannot be read. E.g. {@code 40GiB (2 buffers of it in host memory on the sim) is more than the
   * 23GiB this host has available (MemAvailable in /proc/meminfo)}.
   */
  public void hostMemoryFits(String key, List<Long> sizes, int hostBuffers, int simDeviceBuffers) {
    int buffers = hostBuffers + (backend.simulated() ? simDeviceBuffers : 0);
    if (buffers == 0 || refused.contains(key)) {
      return;
    }
    OptionalLong available = HostMemory.available(host);
    if (available.isEmpty()) {
      return;
    }
    for (long size : sizes) {
      // Overflow-safe: a size above available / buffers cannot be backed.
      if (size > available.getAsLong() / buffers) {
        String where = simDeviceBuffers > 0 && backend.simulated() ? " on the sim" : "";
        problems.accept(
            key,
            ByteSize.format(size)
                + (buffers > 1
                    ? " (" + buffers + " buffers of it in host memory" + where + ")"
                    : where.isEmpty() ? "" : " (in host memory" + where + ")")
                + " is more than the "
                + ByteSize.human(available.getAsLong())
                + " this host has available (MemAvailable in "
                + host.procfs().resolve("meminfo")
                + ")");
        return;
      }
    }
  }
}
