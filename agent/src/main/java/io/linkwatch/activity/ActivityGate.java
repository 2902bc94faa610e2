package io.linkwatch.activity;

import io.linkwatch.probe.DeviceGate;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The {@link DeviceGate} of a real run: reads the devices a target needs before and after its
 * measurement and applies the {@link BusyPolicy}. Under {@code ignore} the devices are still read
 * before each target (so {@code linkwatch_device_busy} tells what a figure was measured next to)
 * but nothing is skipped or discarded.
 *
 * <p>Skips read e.g. {@code device 1 is busy: pid 4242 holds 2GiB, aicore 80%}; discards {@code
 * device 1 became busy during the run (pid 4243 holds 1GiB); its figures were discarded}.
 */
public final class ActivityGate implements DeviceGate {
  private final BusyPolicy policy;
  private final ActivityReader reader;
  private final BusyJudge judge;
  private final IntPredicate exists;
  private final Clock clock;
  private final Map<Integer, DeviceActivity> last = new TreeMap<>();
  private long reads;
  private long readNanos;

  /**
   * @param exists whether a device id names a device; the measurement itself reports one that does
   *     not, so it is not read
   */
  public ActivityGate(
      BusyPolicy policy, ActivityReader reader, BusyJudge judge, IntPredicate exists, Clock clock) {
    this.policy = policy;
    this.reader = reader;
    this.judge = judge;
    this.exists = exists;
    this.clock = clock;
  }

  /**
   * The gate of a run on {@code runtime}: DCMI first, then npu-smi, then device memory against
   * {@code memoryBaselines}; this process is linkwatch's own.
   */
  public static ActivityGate standard(
      BusyPolicy policy, DeviceRuntime runtime, Map<Integer, Long> memoryBaselines) {
    ActivityReader reader =
        new ActivityReader(
            runtime.monitor(),
            // npu-smi knows Ascend devices only; NVIDIA hosts have NVML or device memory.
            runtime.backend().vendor() == Backend.Vendor.ASCEND
                ? new NpuSmiActivitySource(
                    policy.npuSmi(), policy.checkTimeout(), runtime::hostDeviceId)
                : null,
            runtime,
            policy.checkTimeout());
    int count;
    try {
      count = runtime.deviceCount();
    } catch (RuntimeException e) {
      count = Integer.MAX_VALUE; // the measurement will report the failing runtime
    }
    int devices = count;
    return new ActivityGate(
        policy,
        reader,
        new BusyJudge(policy, ProcessHandle.current().pid(), memoryBaselines),
        d -> d < devices,
        Clock.systemUTC());
  }

  @Override
  public TargetResult guard(String target, List<Integer> devices, Supplier<TargetResult> measure) {
    List<DeviceActivity> before = check(devices);
    if (!policy.skips()) {
      return measure.get();
    }
    if (!busy(before).isEmpty()) {
      return TargetResult.failure(
          target,
          Outcome.SKIPPED_DEVICE_BUSY,
          busy(before).stream().map(DeviceActivity::busyLine).collect(Collectors.joining("; ")),
          0);
    }
    TargetResult result = measure.get();
    List<DeviceActivity> after = busy(check(devices));
    if (after.isEmpty()) {
      return result;
    }
    return TargetResult.failure(
        target,
        Outcome.DISCARDED_DEVICE_BUSY,
        after.stream()
                .map(a -> "device " + a.device() + " became busy during the run: " + a.why())
                .collect(Collectors.joining("; "))
            + "; its figures were discarded",
        result.durationSeconds());
  }

  private List<DeviceActivity> check(List<Integer> devices) {
    List<DeviceActivity> found = new ArrayList<>();
    for (int d : devices) {
      if (!exists.test(d)) {
        continue;
      }
      long started = System.nanoTime();
      DeviceActivity a = judge.judge(reader.read(d), clock.millis());
      synchronized (last) {
        last.put(d, a);
        reads++;
        readNanos += System.nanoTime() - started;
      }
      found.add(a);
    }
    return found;
  }

  private static List<DeviceActivity> busy(List<DeviceActivity> found) {
    return found.stream().filter(DeviceActivity::busy).toList();
  }

  /** What the checks cost, for the debug log: e.g. {@code 4 device reads, 1.9 ms in all}. */
  public String cost() {
    synchronized (last) {
      return String.format(
          java.util.Locale.ROOT, "%d device reads, %.1f ms in all", reads, readNanos / 1e6);
    }
  }

  @Override
  public List<DeviceActivity> activity() {
    synchronized (last) {
      return List.copyOf(last.values());
    }
  }
}
