package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.P2pBidirectionalBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.RuntimeTopologySource;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.AscendRuntime;
import io.linkwatch.testing.SimControl;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

  /** GB/s of the run's first figure, both ways together. */
  static double gbps(ProbeRun run) {
    return ((P2pBidirectionalBandwidth) run.targets().get(0).measurements().get(0)).bytesPerSecond()
        / 1e9;
  }

  @Test
  void bothDirectionsAtOnceMoveAboutOneAndAHalfTimesOneDirection() {
    long size = 256L << 20;
    ProbeRun both = run(new P2pBidirectionalSettings(List.of(size), 1, 5, List.of()));
    ProbeRun one = run(new P2pSettings(List.of(size), 1, 5, List.of(new DevicePair(0, 1))));
    assertThat(both.allSucceeded()).as(both.toString()).isTrue();
    assertThat(both.targets()).extracting(TargetResult::target).containsExactly("0<->1");
    P2pBidirectionalBandwidth b =
        (P2pBidirectionalBandwidth) both.targets().get(0).measurements().get(0);
    assertThat(b.a()).isZero();
    assertThat(b.b()).isEqualTo(1);
    assertThat(b.link()).isEqualTo("SIO");
    assertThat(b.bytesPerSecond() * b.secondsPerPair()).isCloseTo(2.0 * size, within(1.0));
    // 1.64 of the bandwidth, and the 0.21 ms latency overlaps too: ~1.68 at 256 MiB.
    assertThat(gbps(both) / P2pProbeSimTest.gbps(one).get("0->1@" + size)).isBetween(1.55, 1.8);
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

  @Test
  void corruptedCopiesAreCaughtInEitherDirection() {
    control.set("corrupt aclrtMemcpyAsync");
    ProbeRun run = run(new P2pBidirectionalSettings(List.of(1L << 20), 0, 1, List.of()));
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

  @Test
  void aFailingStreamWaitIsTheTargetsErrorAndNothingLeaks() {
    control.set("fail aclrtStreamWaitEvent 507011");
    try (DeviceRuntime runtime = AscendRuntime.open(Backend.SIM)) {
      ProbeRun run =
          new P2pBidirectionalSettings(List.of(1L << 20), 0, 1, List.of())
              .newProbe()
              .run(
                  new ProbeContext(
                      runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
      assertThat(run.targets().get(0).error()).startsWith("aclrtStreamWaitEvent returned 507011");
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
