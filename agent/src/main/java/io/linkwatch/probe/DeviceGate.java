package io.linkwatch.probe;

import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.TargetResult;
import java.util.List;
import java.util.function.Supplier;

/**
 * Keeps measurements off devices that run other work. A probe passes each target's measurement
 * through {@link #guard}: the devices it needs are checked before it (busy: the target is skipped
 * as {@code skipped_device_busy}, nothing touches the device) and after it (work started meanwhile:
 * the figures are discarded as {@code discarded_device_busy}, so a contended figure is never
 * published).
 */
public interface DeviceGate {
  /** Measures always and reads nothing: for tests and for callers that check nothing. */
  DeviceGate OPEN =
      new DeviceGate() {
        @Override
        public TargetResult guard(
            String target, List<Integer> devices, Supplier<TargetResult> measure) {
          return measure.get();
        }

        @Override
        public List<DeviceActivity> activity() {
          return List.of();
        }
      };

  /**
   * Runs {@code measure} for {@code target} if every device in {@code devices} is idle, and keeps
   * its result only if they still are afterwards.
   */
  TargetResult guard(String target, List<Integer> devices, Supplier<TargetResult> measure);

  /** The last finding on each device checked so far, by device. */
  List<DeviceActivity> activity();
}
