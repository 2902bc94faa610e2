package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.probe.result.DeviceMemoryBandwidth;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.Topology;
import io.linkwatch.runtime.DeviceRuntime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Against the sim's default profile (seed 000: device-local 621 GB/s, 0.01 ms per copy). */
class DeviceMemoryProbeTest {
  private static ProbeRun run(DeviceMemorySettings settings) {
    try (DeviceRuntime runtime = SimRuntime.open()) {
      long live = runtime.liveAllocations().orElseThrow();
      ProbeRun run = settings.newProbe().run(SimRuntime.context(runtime, r -> Topology.NONE));
      assertThat(runtime.liveAllocations()).contains(live);
      return run;
    }
  }

  private static DeviceMemoryBandwidth only(TargetResult t) {
    assertThat(t.outcome()).as(t.error()).isEqualTo(Outcome.SUCCESS);
    assertThat(t.measurements()).hasSize(1);
    return (DeviceMemoryBandwidth) t.measurements().get(0);
  }

  @Test
  void everyDeviceNear621GBs() {
    ProbeRun run = run(new DeviceMemorySettings(256L << 20, 1, 5, List.of()));

    assertThat(run.probe()).isEqualTo("device_memory");
    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev0", "dev1");
    for (int d = 0; d < 2; d++) {
      DeviceMemoryBandwidth b = only(run.targets().get(d));
      assertThat(b.device()).isEqualTo(d);
      assertThat(b.sizeBytes()).isEqualTo(256L << 20);
      assertThat(b.bytesPerSecond()).isCloseTo(621e9, within(62.1e9));
      assertThat(b.summary()).matches("dev" + d + " 256MiB 6\\d\\d\\.\\dGB/s local");
    }
  }

  @Test
  void oneGibOnOneDevice() {
    ProbeRun run = run(new DeviceMemorySettings(1L << 30, 1, 2, List.of(1)));

    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev1");
    DeviceMemoryBandwidth b = only(run.targets().get(0));
    assertThat(b.sizeBytes()).isEqualTo(1L << 30);
    assertThat(b.bytesPerSecond()).isCloseTo(621e9, within(62.1e9));
  }

  @Test
  void aMissingDeviceFailsAloneAndTheOthersRun() {
    ProbeRun run = run(new DeviceMemorySettings(1L << 20, 0, 2, List.of(5, 0)));

    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev5", "dev0");
    assertThat(run.targets().get(0).outcome()).isEqualTo(Outcome.ERROR);
    assertThat(run.targets().get(0).error()).isEqualTo("no device 5 (found 2)");
    assertThat(run.targets().get(0).measurements()).isEmpty();
    only(run.targets().get(1));
  }

  @Test
  void aSizeAboveTheDeviceMemoryIsThatDevicesError() {
    ProbeRun run = run(new DeviceMemorySettings(65L << 30, 0, 1, List.of(0)));

    TargetResult t = run.targets().get(0);
    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error()).contains("aclrtMalloc");
  }

  @Test
  void settingsRejectNonsense() {
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> new DeviceMemorySettings(0, 0, 1, List.of()))
        .withMessage("copy size must be positive, not 0");
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> new DeviceMemorySettings(1, 0, 1, List.of(0, 0)))
        .withMessage("devices must be distinct and not negative: [0, 0]");
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> new DeviceMemorySettings(1, 0, 0, List.of()))
        .withMessage("iterations must be at least 1, not 0");
  }
}
