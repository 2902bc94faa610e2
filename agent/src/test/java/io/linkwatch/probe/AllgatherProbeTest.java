package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.result.AllgatherBusBandwidth;
import io.linkwatch.probe.result.AllgatherLatency;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.Topology;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.ascend.AscendRuntime;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The allgather probe against the sim through the real JNA binding; the sim's A3 allgather figures
 * (270 us, 150 GB/s bus bandwidth) are an assumption, no A3 figure being published.
 */
class AllgatherProbeTest {
  private static final AllgatherSettings SMALL =
      new AllgatherSettings(List.of(1L << 10, 64L << 20), 1, 5, List.of());

  private static AscendRuntime runtime;
  private static long baseline;

  @BeforeAll
  static void open() {
    SimFaults.clear();
    runtime = AscendRuntime.open(Backend.SIM);
    baseline = runtime.liveAllocations().orElseThrow();
  }

  @AfterAll
  static void close() {
    SimFaults.clear();
    runtime.close();
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

  @Test
  void measuresLatencyAndBusBandwidthAsNcclTestsDefineThem() {
    TargetResult t = only(SMALL);

    assertThat(t.outcome()).as(t.error()).isEqualTo(Outcome.SUCCESS);
    assertThat(t.target()).isEqualTo("0,1");
    assertThat(t.measurements()).hasSize(4);
    AllgatherLatency small = (AllgatherLatency) t.measurements().get(0);
    assertThat(small.sizeBytes()).isEqualTo(1024);
    assertThat(small.p50Seconds()).isCloseTo(270e-6, within(27e-6));
    assertThat(small.p99Seconds()).isGreaterThanOrEqualTo(small.p50Seconds());
    AllgatherLatency large = (AllgatherLatency) t.measurements().get(2);
    AllgatherBusBandwidth bw = (AllgatherBusBandwidth) t.measurements().get(3);
    assertThat(bw.algBytesPerSecond()).isCloseTo((64 << 20) / large.p50Seconds(), within(1.0));
    // two ranks: busbw = algbw (n-1)/n = algbw / 2
    assertThat(bw.busBytesPerSecond()).isCloseTo(bw.algBytesPerSecond() / 2, within(1.0));
    // the model: 270 us + 64 MiB (n-1)/n / 150 GB/s
    double modeled = 270e-6 + (64 << 20) / 2.0 / 150e9;
    assertThat(large.p50Seconds()).isCloseTo(modeled, within(modeled * 0.05));
  }

  @Test
  void aRankWhoseBlockArrivesWrongFailsTheTarget() {
    SimFaults.set("corrupt HcclAllGather");

    TargetResult t = only(SMALL);

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .startsWith("allgather 0,1 1KiB: result mismatch on rank ")
        .contains("at element 0: expected 1 (fp16 0x3c00), found ");
  }

  @Test
  void aFailingAllgatherCarriesHcclsWordsAndLeavesNoRankThread() {
    SimFaults.set("fail HcclAllGather 4 after 3");

    TargetResult t = only(SMALL);

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .isEqualTo(
            "HcclAllGather returned 4: internal error (injected fault: HcclAllGather returned 4)");
  }

  @Test
  void aSizeThatDoesNotSplitIntoWholeElementsPerRankFailsClearly() {
    TargetResult t = only(new AllgatherSettings(List.of(1026L), 0, 1, List.of()));

    assertThat(t.error())
        .isEqualTo(
            "1026B does not split into 2 blocks of whole fp16 elements (use a multiple of 4"
                + " bytes)");
  }
}
