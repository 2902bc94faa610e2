package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.Topology;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.ascend.AscendRuntime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The allreduce probe against the sim through the real JNA binding. Faults come from the control
 * file; a rank whose peer failed waits {@code HCCL_EXEC_TIMEOUT} (5 s under surefire).
 */
class AllreduceProbeTest {
  private static final AllreduceSettings SMALL =
      new AllreduceSettings(List.of(1L << 10, 64L << 10), 2, 10, List.of());

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

  private static ProbeRun run(AllreduceSettings settings) {
    return settings
        .newProbe()
        .run(new ProbeContext(runtime, rt -> Topology.NONE, HostPaths.system(), Progress.NONE));
  }

  private static TargetResult only(ProbeRun run) {
    assertThat(run.skippedBecause()).isEmpty();
    assertThat(run.targets()).hasSize(1);
    return run.targets().get(0);
  }

  @Test
  void measuresLatencyAndBusBandwidthForEverySize() {
    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.SUCCESS);
    assertThat(t.target()).isEqualTo("0,1");
    assertThat(t.measurements()).hasSize(4);
    AllreduceLatency small = (AllreduceLatency) t.measurements().get(0);
    assertThat(small.devices()).isEqualTo("0,1");
    assertThat(small.sizeBytes()).isEqualTo(1024);
    // seed 001: 2-die 1 KB allreduce 272.7 us
    assertThat(small.p50Seconds()).isCloseTo(273e-6, within(27.3e-6));
    assertThat(small.p99Seconds()).isGreaterThanOrEqualTo(small.p50Seconds());
    AllreduceBusBandwidth bw = (AllreduceBusBandwidth) t.measurements().get(3);
    assertThat(bw.sizeBytes()).isEqualTo(64 << 10);
    AllreduceLatency large = (AllreduceLatency) t.measurements().get(2);
    assertThat(bw.algBytesPerSecond()).isCloseTo((64 << 10) / large.p50Seconds(), within(1.0));
    // two ranks: 2(n-1)/n = 1
    assertThat(bw.busBytesPerSecond()).isCloseTo(bw.algBytesPerSecond(), within(1.0));
    assertThat(small.summary()).matches("0,1 1KiB p50 2\\d\\d\\.\\dus p99 \\d+\\.\\dus");
    assertThat(bw.summary()).matches("0,1 64KiB busbw \\d+\\.\\dGB/s algbw \\d+\\.\\dGB/s");
  }

  @Test
  void corruptedResultFailsTheTargetWithResultMismatch() {
    SimFaults.set("corrupt HcclAllReduce");

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.measurements()).isEmpty();
    assertThat(t.error())
        .startsWith("allreduce 0,1 1KiB: result mismatch on rank ")
        .contains("at element 0: expected 3 (fp16 0x4200), found ");
  }

  @Test
  void failingAllreduceCarriesHcclErrorString() {
    SimFaults.set("fail HcclAllReduce 4");

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .isEqualTo(
            "HcclAllReduce returned 4: internal error (injected fault: HcclAllReduce returned 4)");
  }

  @Test
  void rankFailingMidRunReleasesTheOtherAndReportsTheFirstError() {
    // Call 4 fails on one rank while its peer already waits inside the allreduce: the peer leaves
    // at the collective's timeout, and the first error is the one reported.
    SimFaults.set("fail HcclAllReduce 4 after 3");
    long started = System.nanoTime();

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .isEqualTo(
            "HcclAllReduce returned 4: internal error (injected fault: HcclAllReduce returned 4)");
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(30);
  }

  @Test
  void failedInitLeavesNoRankThreads() {
    SimFaults.set("fail HcclCommInitAll 7");

    TargetResult t = only(run(SMALL));

    assertThat(t.error())
        .isEqualTo(
            "HcclCommInitAll returned 7: resource unavailable"
                + " (injected fault: HcclCommInitAll returned 7)");
  }

  @Test
  void faultsSprinkledOverManyRunsLeakNothing() {
    AllreduceSettings tiny = new AllreduceSettings(List.of(1L << 10, 4L << 10), 1, 3, List.of());
    String[] faults = {
      "",
      "fail aclrtMallocWithCfg 207001 after 1",
      "corrupt HcclAllReduce",
      "fail aclrtCreateEvent 507899 after 2",
      "fail aclrtMemcpy 507899 after 3",
      "",
      "fail aclrtSynchronizeStream 507899 after 4",
      "fail aclrtEventElapsedTime 507899 after 5",
      "fail aclrtCreateStream 107002 after 1",
      "fail aclrtMallocHost 207001 after 2",
    };
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String fault = i == 13 ? "fail HcclAllReduce 4 after 3" : faults[i % faults.length];
      SimFaults.clear(runtime);
      if (!fault.isEmpty()) {
        SimFaults.set(fault);
      }
      TargetResult t = only(run(tiny));
      assertThat(t.outcome())
          .as("run %d with '%s': %s", i, fault, t.error())
          .isEqualTo(fault.isEmpty() ? Outcome.SUCCESS : Outcome.ERROR);
      errors.add(t.error());
      assertThat(SimFaults.liveRankThreads()).isZero();
    }
    SimFaults.clear(runtime);

    assertThat(runtime.liveAllocations()).contains(baseline);
    assertThat(errors)
        .contains(
            "aclrtMallocWithCfg returned 207001: injected fault: aclrtMallocWithCfg returned 207001",
            "HcclAllReduce returned 4: internal error (injected fault: HcclAllReduce returned 4)");
    // and the probe still works afterwards
    assertThat(only(run(tiny)).outcome()).isEqualTo(Outcome.SUCCESS);
  }

  @Test
  void oneConfiguredDeviceIsNotApplicable() {
    ProbeRun run = run(new AllreduceSettings(List.of(1024L), 1, 1, List.of(1)));

    assertThat(run.targets()).isEmpty();
    assertThat(run.skippedBecause())
        .isEqualTo("allreduce needs two devices, configured only device 1");
  }

  @Test
  void missingDeviceFailsTheTarget() {
    ProbeRun run = run(new AllreduceSettings(List.of(1024L), 1, 1, List.of(0, 5)));

    TargetResult t = only(run);
    assertThat(t.target()).isEqualTo("0,5");
    assertThat(t.error()).isEqualTo("no device 5 (found 2)");
  }

  @Test
  void explicitDeviceOrderNamesTheTarget() {
    TargetResult t = only(run(new AllreduceSettings(List.of(2048L), 0, 2, List.of(1, 0))));

    assertThat(t.outcome()).isEqualTo(Outcome.SUCCESS);
    assertThat(t.target()).isEqualTo("1,0");
    assertThat(((AllreduceLatency) t.measurements().get(0)).devices()).isEqualTo("1,0");
  }
}
