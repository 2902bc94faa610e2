package io.linkwatch.probe;

import java.util.List;

/**
 * Settings of the allreduce probe. An empty {@code devices} means every device. Sizes are message
 * sizes in bytes of fp16 data, so they must be even.
 *
 * <p>Defaults follow the field notes (seed 001): 1 KiB for latency and 256 MiB for bandwidth, 10
 * warm-up rounds; 50 timed rounds so that p99 means something.
 */
public record AllreduceSettings(List<Long> sizes, int warmup, int iterations, List<Integer> devices)
    implements ProbeSettings {
  public static final AllreduceSettings DEFAULTS =
      new AllreduceSettings(List.of(1L << 10, 256L << 20), 10, 50, List.of());

  public AllreduceSettings {
    sizes = List.copyOf(sizes);
    devices = List.copyOf(devices);
  }

  @Override
  public Probe newProbe() {
    return new AllreduceProbe(this);
  }
}
