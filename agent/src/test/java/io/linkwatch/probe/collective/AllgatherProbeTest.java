package io.linkwatch.probe.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.testing.SimFace;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The allgather probe against the sim through the real JNA binding; the sim's A3 allgather figures
 * (270 us, 150 GB/s bus bandwidth) are an assumption, no A3 figure being published.
 */
class AllgatherProbeTest {
  private static final AllgatherSettings SMALL =
      new AllgatherSettings(List.of(1L << 10, 64L << 20), 1, 5, List.of());

  private static SimFace face;
  private static DeviceRuntime runtime;
  private static long baseline;

  /** One face's runtime at a time, so the leak baseline is that runtime's. */
  private static void use(SimFace wanted) {
    if (face != wanted) {
      close();
      SimFaults.clear();
      runtime = wanted.open();
      face = wanted;
      baseline = runtime.liveAllocations().orElseThrow();
    }
  }

  @AfterAll
  static void close() {
    SimFaults.clear();
    if (runtime != null) {
      runtime.close();
      runtime = null;
      face = null;
    }
  }

  @AfterEach
  void noFaultsAndNothingLeftBehind() {
    SimFaults.clear(runtime);
    assertThat(SimFaults.liveRankThreads()).isZero();
    assertThat(runtime.liveAllocations()).contains(baseline);
  }

  private static TargetResult only(AllgatherSettings settings) {
    ProbeRun run =
        settings
            .newProbe()
            .run(new ProbeContext(runtime, rt -> Topology.NONE, HostPaths.system(), Progress.NONE));
    assertThat(run.skippedBecause()).isEmpty();
    assertThat(run.probe()).isEqualTo("allgather");
    assertThat(run.targets()).hasSize(1);
    return run.targets().get(0);
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void measuresLatencyAndBusBandwidthAsNcclTestsDefineThem(SimFace face) {
    use(face);
    TargetResult t = only(SMALL);

    assertThat(t.outcome()).as(t.error()).isEqualTo(Outcome.SUCCESS);
    assertThat(t.target()).isEqualTo(face.allDevices());
    assertThat(t.measurements()).hasSize(4);
    AllgatherLatency small = (AllgatherLatency) t.measurements().get(0);
    assertThat(small.sizeBytes()).isEqualTo(1024);
    double latency = face.allgatherLatency();
    assertThat(small.p50Seconds()).isCloseTo(latency, within(latency * 0.15));
    assertThat(small.p99Seconds()).isGreaterThanOrEqualTo(small.p50Seconds());
    AllgatherLatency large = (AllgatherLatency) t.measurements().get(2);
    AllgatherBusBandwidth bw = (AllgatherBusBandwidth) t.measurements().get(3);
    assertThat(bw.algBytesPerSecond()).isCloseTo((64 << 20) / large.p50Seconds(), within(1.0));
    // n ranks: busbw = algbw (n-1)/n
    double n = face.devices();
    assertThat(bw.busBytesPerSecond()).isCloseTo(bw.algBytesPerSecond() * (n - 1) / n, within(1.0));
    // the model: latency + 64 MiB (n-1)/n / bus bandwidth
    double modeled = latency + (64 << 20) * (n - 1) / n / face.allgatherBusBandwidth();
    assertThat(large.p50Seconds()).isCloseTo(modeled, within(modeled * 0.05));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aRankWhoseBlockArrivesWrongFailsTheTarget(SimFace face) {
    use(face);
    SimFaults.set("corrupt " + face.symbol(SimFace.Call.ALLGATHER));

    TargetResult t = only(SMALL);

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .startsWith("allgather " + face.allDevices() + " 1KiB: result mismatch on rank ")
        .contains("at element 0: expected ");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aFailingAllgatherCarriesTheLibrarysWordsAndLeavesNoRankThread(SimFace face) {
    use(face);
    String allgather = face.symbol(SimFace.Call.ALLGATHER);
    SimFaults.set("fail " + allgather + " 4 after 3");

    TargetResult t = only(SMALL);

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error()).startsWith(allgather + " returned 4: ");
  }

  @Test
  void hcclsWordsForAFailingAllgather() {
    use(SimFace.ASCEND);
    SimFaults.set("fail HcclAllGather 4 after 3");

    TargetResult t = only(SMALL);

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .isEqualTo(
            "HcclAllGather returned 4: internal error (injected fault: HcclAllGather returned 4)");
  }

  @Test
  void aSizeThatDoesNotSplitIntoWholeElementsPerRankFailsClearly() {
    use(SimFace.ASCEND);
    TargetResult t = only(new AllgatherSettings(List.of(1026L), 0, 1, List.of()));

    assertThat(t.error())
        .isEqualTo(
            "1026B does not split into 2 blocks of whole fp16 elements (use a multiple of 4"
                + " bytes)");
  }
}
