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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The p2p_bidirectional probe through the real JNA binding, on the sim's default A3 profile, whose
 * SIO link moves 1.64x one direction's bandwidth with both directions at once (an assumption: no
 * SIO figure is published; 1.64 is seed 002's A3 card ratio).
 */
class P2pBidirectionalProbeSimTest {
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
    return P2pProbeSimTest.run(settings);
  }

  static ProbeRun run(SimFace face, ProbeSettings settings) {
    return P2pProbeSimTest.run(face, settings);
  }

  static List<DevicePair> pair01() {
    return List.of(new DevicePair(0, 1));
  }

  /** GB/s of the run's first figure, both ways together. */
  static double gbps(ProbeRun run) {
    return ((P2pBidirectionalBandwidth) run.targets().get(0).measurements().get(0)).bytesPerSecond()
        / 1e9;
  }

  /** The profile's ratio: 1.64 for the A3's SIO (an assumption), 1.9 for the H200's NVLink. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void bothDirectionsAtOnceMoveTheProfilesRatioOfOneDirection(SimFace face) {
    long size = 256L << 20;
    ProbeRun both = run(face, new P2pBidirectionalSettings(List.of(size), 1, 5, pair01()));
    ProbeRun one = run(face, new P2pSettings(List.of(size), 1, 5, pair01()));
    assertThat(both.allSucceeded()).as(both.toString()).isTrue();
    assertThat(both.targets()).extracting(TargetResult::target).containsExactly("0<->1");
    P2pBidirectionalBandwidth b =
        (P2pBidirectionalBandwidth) both.targets().get(0).measurements().get(0);
    assertThat(b.a()).isZero();
    assertThat(b.b()).isEqualTo(1);
    assertThat(b.link()).isEqualTo(face.link01());
    assertThat(b.bytesPerSecond() * b.secondsPerPair()).isCloseTo(2.0 * size, within(1.0));
    // The ratio of the bandwidth, and the latency overlaps too (A3: ~1.68 at 256 MiB).
    double ratio = face.bidirectional();
    assertThat(gbps(both) / P2pProbeSimTest.gbps(one).get("0->1@" + size))
        .isBetween(ratio - 0.1, ratio + 0.16);
  }

  @Test
  void oneSlowDirectionPullsThePairDown() {
    long size = 64L << 20;
    double healthy = gbps(run(new P2pBidirectionalSettings(List.of(size), 1, 5, List.of())));
    control.set("link 0 1 scale 0.5");
    double degraded = gbps(run(new P2pBidirectionalSettings(List.of(size), 1, 5, List.of())));
    // The pair ends when its slower copy does: 0->1 at half its bandwidth sets the wall time.
    assertThat(degraded / healthy).isBetween(0.5, 0.8);
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void corruptedCopiesAreCaughtInEitherDirection(SimFace face) {
    control.set("corrupt " + face.symbol(Call.PEER_COPY_ASYNC));
    ProbeRun run = run(face, new P2pBidirectionalSettings(List.of(1L << 20), 0, 1, pair01()));
    assertThat(run.targets())
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error())
                  .startsWith("p2p_bidirectional 0<->1 1MiB: ")
                  .contains("data mismatch");
            });
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aFailingStreamWaitIsTheTargetsErrorAndNothingLeaks(SimFace face) {
    String wait = face.symbol(Call.STREAM_WAIT);
    control.set("fail " + wait + " " + face.deviceErrorCode());
    try (DeviceRuntime runtime = face.open()) {
      ProbeRun run =
          new P2pBidirectionalSettings(List.of(1L << 20), 0, 1, pair01())
              .newProbe()
              .run(
                  new ProbeContext(
                      runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
      assertThat(run.targets().get(0).error())
          .startsWith(wait + " returned " + face.deviceErrorCode());
      control.clear();
      assertThat(runtime.liveAllocations()).contains(0L);
    }
  }

  @Test
  void aPairBeyondTheDevicesFailsClearly() {
    ProbeRun run =
        run(new P2pBidirectionalSettings(List.of(1L << 20), 0, 1, List.of(new DevicePair(0, 5))));
    assertThat(run.targets().get(0).error()).isEqualTo("no device 5 (found 2)");
  }

  @Test
  void pairsAreUnorderedAndWrittenLowerIdFirst() {
    assertThat(P2pBidirectionalSettings.parsePair("1<->0")).isEqualTo(new DevicePair(0, 1));
    assertThat(P2pBidirectionalProbe.unorderedPairs(3))
        .extracting(P2pBidirectionalSettings::name)
        .containsExactly("0<->1", "0<->2", "1<->2");
  }
}
