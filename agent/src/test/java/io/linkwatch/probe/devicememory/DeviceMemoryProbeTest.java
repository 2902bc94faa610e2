package io.linkwatch.probe.devicememory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.probe.SimRuntime;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.testing.SimFace;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Against each sim face's built-in profile: device-local 621 GB/s on the A3 (seed 000), 2000 GB/s
 * on the H200 profile.
 */
class DeviceMemoryProbeTest {
  private static ProbeRun run(SimFace face, DeviceMemorySettings settings) {
    try (DeviceRuntime runtime = face.open()) {
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

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void everyDeviceNearTheLocalRate(SimFace face) {
    ProbeRun run = run(face, new DeviceMemorySettings(256L << 20, 1, 5, List.of()));

    assertThat(run.probe()).isEqualTo("device_memory");
    assertThat(run.targets())
        .extracting(TargetResult::target)
        .containsExactlyElementsOf(
            IntStream.range(0, face.devices()).mapToObj(d -> "dev" + d).toList());
    double local = face.localBandwidth();
    for (int d = 0; d < face.devices(); d++) {
      DeviceMemoryBandwidth b = only(run.targets().get(d));
      assertThat(b.device()).isEqualTo(d);
      assertThat(b.sizeBytes()).isEqualTo(256L << 20);
      assertThat(b.bytesPerSecond()).isCloseTo(local, within(local * 0.1));
      assertThat(b.summary()).matches("dev" + d + " 256MiB \\d+\\.\\dGB/s local");
    }
  }

  @Test
  void theA3FigureIsSeed000s() {
    DeviceMemoryBandwidth b =
        only(
            run(SimFace.ASCEND, new DeviceMemorySettings(256L << 20, 1, 5, List.of(0)))
                .targets()
                .get(0));
    assertThat(b.summary()).matches("dev0 256MiB 6\\d\\d\\.\\dGB/s local");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void oneGibOnOneDevice(SimFace face) {
    ProbeRun run = run(face, new DeviceMemorySettings(1L << 30, 1, 2, List.of(1)));

    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev1");
    DeviceMemoryBandwidth b = only(run.targets().get(0));
    assertThat(b.sizeBytes()).isEqualTo(1L << 30);
    double local = face.localBandwidth();
    assertThat(b.bytesPerSecond()).isCloseTo(local, within(local * 0.1));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aMissingDeviceFailsAloneAndTheOthersRun(SimFace face) {
    ProbeRun run = run(face, new DeviceMemorySettings(1L << 20, 0, 2, List.of(9, 0)));

    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev9", "dev0");
    assertThat(run.targets().get(0).outcome()).isEqualTo(Outcome.ERROR);
    assertThat(run.targets().get(0).error())
        .isEqualTo("no device 9 (found " + face.devices() + ")");
    assertThat(run.targets().get(0).measurements()).isEmpty();
    only(run.targets().get(1));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aSizeAboveTheDeviceMemoryIsThatDevicesError(SimFace face) {
    long tooMuch = face.memoryBytes() + (1L << 30);
    ProbeRun run = run(face, new DeviceMemorySettings(tooMuch, 0, 1, List.of(0)));

    TargetResult t = run.targets().get(0);
    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error()).contains(face.symbol(SimFace.Call.DEVICE_MALLOC));
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
