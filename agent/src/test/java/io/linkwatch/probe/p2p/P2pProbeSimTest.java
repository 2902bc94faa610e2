package io.linkwatch.probe.p2p;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.RuntimeTopologySource;
import io.linkwatch.testing.SimControl;
import io.linkwatch.testing.SimFace;
import io.linkwatch.testing.SimFace.Call;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The p2p probe through each real JNA binding (AscendCL, CUDA), against the sim's built-in profile
 * of that face: an Atlas 800T A3 (two dies, SIO) and 8 x H200 (NVLink).
 */
class P2pProbeSimTest {
  private SimControl control;

  @BeforeEach
  void noFaults() {
    control = SimControl.open();
  }

  @AfterEach
  void removeFaults() {
    control.close();
  }

  static ProbeRun run(ProbeSettings settings) {
    return run(SimFace.ASCEND, settings);
  }

  static ProbeRun run(SimFace face, ProbeSettings settings) {
    try (DeviceRuntime runtime = face.open()) {
      return settings
          .newProbe()
          .run(
              new ProbeContext(
                  runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
    }
  }

  static Map<String, Double> gbps(ProbeRun run) {
    return run.targets().stream()
        .flatMap(t -> t.measurements().stream())
        .map(P2pBandwidth.class::cast)
        .collect(
            Collectors.toMap(
                m -> m.src() + "->" + m.dst() + "@" + m.sizeBytes(),
                m -> m.bytesPerSecond() / 1e9));
  }

  /** Seed 000's table: 1 MB 4.7/4.4, 64 MB 116.5/116.3, 1024 MB 182.4/183.6 GB/s. */
  @Test
  void matchesTheFieldNotesWithinTenPercent() {
    ProbeRun small = run(new P2pSettings(List.of(1L << 20, 64L << 20), 2, 10, List.of()));
    ProbeRun large = run(new P2pSettings(List.of(1L << 30), 1, 3, List.of()));
    assertThat(small.allSucceeded()).isTrue();
    assertThat(large.allSucceeded()).isTrue();
    Map<String, Double> g = gbps(small);
    g.putAll(gbps(large));
    assertThat(g.get("0->1@1048576")).isCloseTo(4.7, within(0.47));
    assertThat(g.get("1->0@1048576")).isCloseTo(4.4, within(0.6));
    assertThat(g.get("0->1@67108864")).isCloseTo(116.5, within(11.65));
    assertThat(g.get("1->0@67108864")).isCloseTo(116.3, within(11.63));
    assertThat(g.get("0->1@1073741824")).isCloseTo(182.4, within(18.24));
    assertThat(g.get("1->0@1073741824")).isCloseTo(183.6, within(18.36));
    assertThat(small.targets()).extracting(TargetResult::target).containsExactly("0->1", "1->0");
    assertThat(small.targets().get(0).measurements())
        .allSatisfy(m -> assertThat(((P2pBandwidth) m).link()).isEqualTo("SIO"));
  }

  /** Large copies run at the profile's link rate, and every pair is labelled with its link. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void largeCopiesRunAtTheLinkRate(SimFace face) {
    ProbeRun run = run(face, new P2pSettings(List.of(1L << 30), 1, 3, face.firstPairs()));
    assertThat(run.allSucceeded()).isTrue();
    Map<String, Double> g = gbps(run);
    double expected = face.linkBandwidth() / 1e9;
    assertThat(g.get("0->1@1073741824")).isCloseTo(expected, within(expected * 0.1));
    assertThat(g.get("1->0@1073741824")).isCloseTo(expected, within(expected * 0.1));
    assertThat(run.targets().get(0).measurements())
        .allSatisfy(m -> assertThat(((P2pBandwidth) m).link()).isEqualTo(face.link01()));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void anInjectedCopyFailureFailsTheTargetWithTheRuntimesWords(SimFace face) {
    String copy = face.symbol(Call.PEER_COPY_ASYNC);
    control.set("fail " + copy + " " + face.deviceErrorCode());
    ProbeRun run = run(face, new P2pSettings(List.of(1L << 20), 1, 2, face.firstPairs()));
    assertThat(run.targets())
        .hasSize(2)
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error()).startsWith(copy + " returned " + face.deviceErrorCode() + ": ");
              assertThat(t.measurements()).isEmpty();
            });
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void corruptedCopiesAreCaughtByTheDataCheck(SimFace face) {
    control.set("corrupt " + face.symbol(Call.PEER_COPY_ASYNC));
    ProbeRun run = run(face, new P2pSettings(List.of(1L << 20, 3L << 20), 0, 1, face.firstPairs()));
    assertThat(run.targets()).allSatisfy(t -> assertThat(t.error()).contains("data mismatch"));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void oneBrokenDirectionLeavesTheOtherMeasured(SimFace face) {
    control.set("link 0 1 scale 0.5");
    Map<String, Double> g =
        gbps(run(face, new P2pSettings(List.of(256L << 20), 1, 5, face.firstPairs())));
    // The scale halves the link's bandwidth, not its latency, so copies lose a bit less than half.
    assertThat(g.get("0->1@268435456") / g.get("1->0@268435456")).isBetween(0.45, 0.68);
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void configuredPairsOnly(SimFace face) {
    ProbeRun run =
        run(face, new P2pSettings(List.of(1L << 20), 0, 1, List.of(new DevicePair(1, 0))));
    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("1->0");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aPairBeyondTheDevicesFailsClearly(SimFace face) {
    ProbeRun run =
        run(face, new P2pSettings(List.of(1L << 20), 0, 1, List.of(new DevicePair(0, 9))));
    assertThat(run.targets().get(0).error())
        .isEqualTo("no device 9 (found " + face.devices() + ")");
  }

  /** 100 runs with faults sprinkled in: every path releases what it took. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void nothingLeaksAcrossRunsWithFaults(SimFace face) {
    int code = face.deviceErrorCode();
    String[] faults = {
      "fail " + face.symbol(Call.PEER_COPY_ASYNC) + " " + code + " after 3",
      "fail " + face.symbol(Call.DEVICE_MALLOC) + " 2 after 1",
      "corrupt " + face.symbol(Call.PEER_COPY_ASYNC),
      "fail " + face.symbol(Call.CREATE_EVENT) + " 1 after 1",
      "fail " + face.symbol(Call.SYNCHRONIZE_STREAM) + " " + code + " after 2",
      "fail " + face.symbol(Call.COPY) + " 1 after 2",
      "fail " + face.symbol(Call.RECORD_EVENT) + " 1 after 1",
      "fail " + face.symbol(Call.HOST_MALLOC) + " 2",
    };
    int failed = 0;
    try (DeviceRuntime runtime = face.open()) {
      for (int i = 0; i < 100; i++) {
        if (i % 3 == 0) {
          control.set(faults[(i / 3) % faults.length]);
        } else {
          control.clear();
        }
        ProbeRun run =
            new P2pSettings(List.of(256L << 10), 1, 2, face.firstPairs())
                .newProbe()
                .run(
                    new ProbeContext(
                        runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
        failed += run.allSucceeded() ? 0 : 1;
      }
      control.clear();
      assertThat(failed).as("runs that met a fault").isGreaterThan(20);
      assertThat(runtime.liveAllocations()).contains(0L);
    }
  }
}
