package io.linkwatch.activity;

import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceMonitor;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.MemoryInfo;
import io.linkwatch.runtime.Utilization;
import io.linkwatch.util.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a device's activity from the best source that answers: DCMI (processes with their memory,
 * and utilization), else the process table of {@code npu-smi info}, else the device memory in use
 * from the runtime ({@code aclrtGetMemInfo}), which a busy policy compares with an idle baseline.
 * Each call runs under a timeout on a daemon thread, so a hung driver call costs one timeout, not a
 * hung worker. A source that fails for a reason that will not go away in this process (library
 * missing, not supported, hung) is not asked again, and is warned about once.
 */
public final class ActivityReader {
  private static final Logger log = LoggerFactory.getLogger(ActivityReader.class);

  private final DeviceMonitor monitor;
  private final NpuSmiActivitySource npuSmi;
  private final DeviceRuntime runtime;
  private final Duration timeout;
  private final ExecutorService calls =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "activity-read");
            t.setDaemon(true);
            return t;
          });
  private final Set<String> dead = new LinkedHashSet<>();

  /**
   * @param monitor DCMI, or null to skip it
   * @param npuSmi the npu-smi command, or null to skip it
   * @param runtime for device memory, or null to skip it
   */
  public ActivityReader(
      DeviceMonitor monitor, NpuSmiActivitySource npuSmi, DeviceRuntime runtime, Duration timeout) {
    this.monitor = monitor;
    this.npuSmi = npuSmi;
    this.runtime = runtime;
    this.timeout = timeout;
  }

  public DeviceReading read(int device) {
    List<String> failures = new ArrayList<>();
    Map<Utilization, Double> utilization = new EnumMap<>(Utilization.class);
    List<DeviceProcess> processes = null;
    String name = monitor == null ? null : monitor.source();
    if (monitor != null && !dead.contains(name)) {
      processes = call(name, failures, false, () -> monitor.processes(device));
      if (!dead.contains(name)) {
        // A kind the device lacks says nothing about the others: not a failure of the reading.
        List<String> ignored = new ArrayList<>();
        for (Utilization kind : Utilization.values()) {
          Double value = call(name, ignored, true, () -> monitor.utilization(device, kind));
          if (value != null) {
            utilization.put(kind, value);
          }
        }
      }
    }
    if (processes != null) {
      return new DeviceReading(device, name, processes, utilization, null, failures);
    }
    if (npuSmi != null && !dead.contains("npu-smi")) {
      processes = call("npu-smi", failures, false, () -> npuSmi.processes(device));
      if (processes != null) {
        return new DeviceReading(device, "npu-smi", processes, utilization, null, failures);
      }
    }
    Long used = null;
    if (runtime != null && !dead.contains("memory")) {
      MemoryInfo info = call("memory", failures, false, () -> runtime.memoryInfo(device));
      used = info == null ? null : info.totalBytes() - info.freeBytes();
    }
    String source = used != null ? "memory" : "none";
    return new DeviceReading(device, source, null, utilization, used, failures);
  }

  /**
   * Runs one reading under the timeout; null when it failed, with the reason in {@code failures}. A
   * source that hung, or failed in a way that will not change in this process, is not asked again;
   * for an {@code optional} reading (one utilization kind) only a hang counts so.
   */
  private <T> T call(String source, List<String> failures, boolean optional, Callable<T> reading) {
    Future<T> f = calls.submit(reading);
    String reason;
    boolean hung = false;
    boolean permanent;
    try {
      return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      reason = "no answer within " + Durations.format(timeout);
      hung = true;
      permanent = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      reason = "interrupted";
      permanent = true;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      reason = String.valueOf(cause.getMessage());
      permanent =
          cause instanceof BackendUnavailableException
              || cause instanceof UnsatisfiedLinkError
              || (cause instanceof DeviceException d
                  && monitor != null
                  && source.equals(monitor.source())
                  && monitor.permanent(d.code()));
      if (!(cause instanceof DeviceException || permanent)) {
        reason = cause.getClass().getSimpleName() + ": " + reason;
      }
    }
    failures.add(source + ": " + reason);
    if ((optional ? hung : permanent) && dead.add(source)) {
      log.warn("Device activity: {} is not used from now on: {}", source, reason);
    }
    return null;
  }
}
