package io.linkwatch.probe.devicememory;

import io.linkwatch.probe.CopyTimer;
import io.linkwatch.probe.DataCheck;
import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.probe.DeviceIds;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Durations;
import java.util.ArrayList;
import java.util.List;

/**
 * Device-local copy bandwidth, the reference the link figures are compared to: for each device two
 * buffers on that device, a D2D copy between them timed with device events on a stream of the same
 * device ({@link CopyTimer}: warm-up, then the median), and the copied data checked. The figure is
 * bytes copied per second (a copy reads and writes each byte, so the memory traffic is twice that;
 * seed 000's 621 GB/s is reported the same way). One device's failure is that device's result; the
 * other devices still run.
 *
 * <p>Target {@code dev<N>}; produces e.g. {@code DeviceMemoryBandwidth[device=0,
 * sizeBytes=1073741824, bytesPerSecond=6.18e11]}.
 */
public final class DeviceMemoryProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "device_memory";

  private final DeviceMemorySettings settings;

  public DeviceMemoryProbe(DeviceMemorySettings settings) {
    this.settings = settings;
  }

  /** The target name of a device: {@code dev0}. */
  public static String target(int device) {
    return DeviceIds.target(device);
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    String probe = ID;
    long started = System.nanoTime();
    int count;
    try {
      count = context.runtime().deviceCount();
    } catch (DeviceException e) {
      return ProbeRun.failedBeforeTargets(
          probe, TargetResult.error(probe, e, Durations.secondsSince(started)));
    }
    if (count < 1) {
      return ProbeRun.notApplicable(probe, "no devices found");
    }
    List<Integer> devices = settings.devices();
    if (devices.isEmpty()) {
      devices = new ArrayList<>();
      for (int d = 0; d < count; d++) {
        devices.add(d);
      }
    }
    List<TargetResult> results = new ArrayList<>();
    for (int device : devices) {
      if (context.wants(target(device))) {
        results.add(
            context
                .gate()
                .guard(target(device), List.of(device), () -> measure(context, device, count)));
      }
    }
    return ProbeRun.of(probe, results);
  }

  private TargetResult measure(ProbeContext context, int device, int count) {
    long started = System.nanoTime();
    String target = target(device);
    if (device >= count) {
      return TargetResult.failure(
          target, Outcome.ERROR, "no device " + device + " (found " + count + ")", 0);
    }
    DeviceRuntime runtime = context.runtime();
    long size = settings.size();
    context.progress().step(target + " " + ByteSize.format(size));
    try (DeviceBuffer src = runtime.allocate(device, size);
        DeviceBuffer dst = runtime.allocate(device, size)) {
      DataCheck check = new DataCheck(runtime);
      DataCheck.Pattern written = check.fill(src, 0x5eed_0000L + device);
      double seconds =
          new CopyTimer(runtime, settings.warmup(), settings.iterations())
              .medianSeconds(dst, src, size, device);
      String mismatch = check.verify(dst, size, written);
      if (!mismatch.isEmpty()) {
        throw new DataMismatchException(
            "device_memory " + target + " " + ByteSize.format(size) + ": " + mismatch);
      }
      if (!(seconds > 0)) {
        return TargetResult.failure(
            target,
            Outcome.ERROR,
            "the device reported " + seconds + " s per copy; no bandwidth can be derived",
            Durations.secondsSince(started));
      }
      return TargetResult.success(
          target,
          Durations.secondsSince(started),
          List.of(new DeviceMemoryBandwidth(device, size, size / seconds)));
    } catch (DeviceException | DataMismatchException e) {
      return TargetResult.error(target, e, Durations.secondsSince(started));
    }
  }
}
