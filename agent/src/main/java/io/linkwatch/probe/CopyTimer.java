package io.linkwatch.probe;

import io.linkwatch.host.Memory;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.util.Stats;

/**
 * Times one copy the way the field notes do: warm-up copies first (the first copy pays for
 * allocation and mapping), then each measured copy between two device events on the copy's stream,
 * and the median of those. Used by every copy-bandwidth probe so they all measure alike.
 */
public final class CopyTimer {
  private final DeviceRuntime runtime;
  private final int warmup;
  private final int iterations;

  public CopyTimer(DeviceRuntime runtime, int warmup, int iterations) {
    this.runtime = runtime;
    this.warmup = warmup;
    this.iterations = iterations;
  }

  /**
   * The median device time of one copy of {@code bytes} from {@code src} to {@code dst}, in
   * seconds.
   */
  public double medianSeconds(Memory dst, Memory src, long bytes, int streamDevice) {
    try (DeviceStream stream = runtime.createStream(streamDevice);
        DeviceEvent start = runtime.createEvent(streamDevice);
        DeviceEvent end = runtime.createEvent(streamDevice)) {
      for (int i = 0; i < warmup; i++) {
        runtime.copyAsync(dst, 0, src, 0, bytes, stream);
      }
      runtime.synchronize(stream);
      double[] seconds = new double[iterations];
      for (int i = 0; i < iterations; i++) {
        runtime.record(start, stream);
        runtime.copyAsync(dst, 0, src, 0, bytes, stream);
        runtime.record(end, stream);
        runtime.synchronize(stream);
        seconds[i] = runtime.elapsedMillis(start, end) / 1e3;
      }
      return Stats.median(seconds);
    }
  }
}
