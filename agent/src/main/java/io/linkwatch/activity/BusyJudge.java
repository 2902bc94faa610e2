package io.linkwatch.activity;

import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.BusyReason.Kind;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.Utilization;
import io.linkwatch.util.ByteSize;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a device's readings into a verdict under a {@link BusyPolicy}. linkwatch's own process
 * never counts: DCMI lists every process with a context on the device, the probe's worker too.
 *
 * <p>When only the device memory in use could be read, it is compared with the idle baseline: the
 * least memory in use this agent has seen on the device (the runtime's own reservation and this
 * worker's context are in every reading, so only what others hold stands out).
 */
public final class BusyJudge {
  private final BusyPolicy policy;
  private final long selfPid;
  private final Map<Integer, Long> memoryBaselines;

  public BusyJudge(BusyPolicy policy, long selfPid, Map<Integer, Long> memoryBaselines) {
    this.policy = policy;
    this.selfPid = selfPid;
    this.memoryBaselines = Map.copyOf(memoryBaselines);
  }

  public DeviceActivity judge(DeviceReading r, long nowMillis) {
    List<BusyReason> reasons = new ArrayList<>();
    List<DeviceProcess> others = null;
    if (r.processes() != null) {
      others = r.processes().stream().filter(p -> p.pid() != selfPid).toList();
      for (DeviceProcess p : others) {
        reasons.add(
            new BusyReason(
                Kind.PROCESS, "pid " + p.pid() + " holds " + ByteSize.format(p.memoryBytes())));
      }
    }
    Map<String, Double> utilization = new LinkedHashMap<>();
    r.utilization()
        .forEach(
            (kind, value) -> {
              utilization.put(kind.label(), value);
              if (value > policy.utilizationAbove()) {
                reasons.add(new BusyReason(Kind.UTILIZATION, describe(kind, value)));
              }
            });
    if (r.memoryUsedBytes() != null) {
      long used = r.memoryUsedBytes();
      long idle = Math.min(memoryBaselines.getOrDefault(r.device(), used), used);
      if (used - idle > policy.memoryAboveBytes()) {
        reasons.add(
            new BusyReason(
                Kind.MEMORY,
                ByteSize.format(used)
                    + " of device memory in use, "
                    + ByteSize.format(idle)
                    + " when idle"));
      }
    }
    boolean nothingRead = r.processes() == null && r.memoryUsedBytes() == null;
    if (nothingRead
        && r.utilization().isEmpty()
        && policy.whenUnknown() == BusyPolicy.Unknown.BUSY) {
      reasons.add(
          new BusyReason(
              Kind.UNKNOWN,
              "no activity reading ("
                  + (r.failures().isEmpty() ? "no source" : String.join("; ", r.failures()))
                  + ")"));
    }
    return new DeviceActivity(
        r.device(),
        !reasons.isEmpty(),
        r.source(),
        reasons,
        others,
        utilization,
        r.memoryUsedBytes(),
        nowMillis);
  }

  private static String describe(Utilization kind, double value) {
    return String.format(Locale.ROOT, "%s %.0f%%", kind.label(), value * 100);
  }
}
