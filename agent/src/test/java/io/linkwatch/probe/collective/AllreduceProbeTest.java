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
import io.linkwatch.testing.SimFace.Call;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The allreduce probe against the sim through the real JNA binding. Faults come from the control
 * file; a rank whose peer failed waits {@code HCCL_EXEC_TIMEOUT} (5 s under surefire).
 */
class AllreduceProbeTest {
  private static final AllreduceSettings SMALL =
      new AllreduceSettings(List.of(1L << 10, 64L << 10), 2, 10, List.of());

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

  /** Over every device of the profile: 2 dies on the A3 (seed 001: 1 KB in 272.7 us), 8 H200s. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void measuresLatencyAndBusBandwidthForEverySize(SimFace face) {
    use(face);
    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).as(t.error()).isEqualTo(Outcome.SUCCESS);
    String all = face.allDevices();
    assertThat(t.target()).isEqualTo(all);
    assertThat(t.measurements()).hasSize(4);
    AllreduceLatency small = (AllreduceLatency) t.measurements().get(0);
    assertThat(small.devices()).isEqualTo(all);
    assertThat(small.sizeBytes()).isEqualTo(1024);
    double latency = face.allreduceLatency();
    assertThat(small.p50Seconds()).isCloseTo(latency, within(latency * 0.15));
    assertThat(small.p99Seconds()).isGreaterThanOrEqualTo(small.p50Seconds());
    AllreduceBusBandwidth bw = (AllreduceBusBandwidth) t.measurements().get(3);
    assertThat(bw.sizeBytes()).isEqualTo(64 << 10);
    AllreduceLatency large = (AllreduceLatency) t.measurements().get(2);
    assertThat(bw.algBytesPerSecond()).isCloseTo((64 << 10) / large.p50Seconds(), within(1.0));
    // n ranks: bus bandwidth is 2(n-1)/n times the algorithm bandwidth
    int n = face.devices();
    assertThat(bw.busBytesPerSecond())
        .isCloseTo(bw.algBytesPerSecond() * 2 * (n - 1) / n, within(1.0));
    assertThat(small.summary()).matches(all + " 1KiB p50 \\d+\\.\\dus p99 \\d+\\.\\dus");
    assertThat(bw.summary()).matches(all + " 64KiB busbw \\d+\\.\\d+GB/s algbw \\d+\\.\\d+GB/s");
  }

  @Test
  void theA3FigureIsSeed001s() {
    use(SimFace.ASCEND);
    AllreduceLatency small = (AllreduceLatency) only(run(SMALL)).measurements().get(0);
    assertThat(small.p50Seconds()).isCloseTo(273e-6, within(27.3e-6));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void corruptedResultFailsTheTargetWithResultMismatch(SimFace face) {
    use(face);
    SimFaults.set("corrupt " + face.symbol(Call.ALLREDUCE));

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.measurements()).isEmpty();
    assertThat(t.error())
        .startsWith("allreduce " + face.allDevices() + " 1KiB: result mismatch on rank ")
        .contains("at element 0: expected ");
  }

  /** NCCL's texts for its codes: 3 internal error, 7 in progress. */
  @Test
  void failingNcclAllreduceCarriesNcclsErrorString() {
    use(SimFace.CUDA);
    SimFaults.set("fail ncclAllReduce 3");

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error()).startsWith("ncclAllReduce returned 3: ").contains("internal");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void rankFailingMidRunReleasesTheOthers(SimFace face) {
    use(face);
    String allreduce = face.symbol(Call.ALLREDUCE);
    SimFaults.set("fail " + allreduce + " 3 after 3");
    long started = System.nanoTime();

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error()).startsWith(allreduce + " returned 3");
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(30);
  }

  @Test
  void failingAllreduceCarriesHcclErrorString() {
    use(SimFace.ASCEND);
    SimFaults.set("fail HcclAllReduce 4");

    TargetResult t = only(run(SMALL));

    assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(t.error())
        .isEqualTo(
            "HcclAllReduce returned 4: internal error (injected fault: HcclAllReduce returned 4)");
  }

  @Test
  void rankFailingMidRunReleasesTheOtherAndReportsTheFirstError() {
    use(SimFace.ASCEND);
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
    use(SimFace.ASCEND);
    SimFaults.set("fail HcclCommInitAll 7");

    TargetResult t = only(run(SMALL));

    assertThat(t.error())
        .isEqualTo(
            "HcclCommInitAll returned 7: resource unavailable"
                + " (injected fault: HcclCommInitAll returned 7)");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void faultsSprinkledOverManyRunsLeakNothing(SimFace face) {
    use(face);
    AllreduceSettings tiny = new AllreduceSettings(List.of(1L << 10, 4L << 10), 1, 3, List.of());
    int code = face.deviceErrorCode();
    String[] faults = {
      "",
      "fail " + face.symbol(Call.DEVICE_MALLOC) + " 2 after 1",
      "corrupt " + face.symbol(Call.ALLREDUCE),
      "fail " + face.symbol(Call.CREATE_EVENT) + " " + code + " after 2",
      "fail " + face.symbol(Call.COPY) + " " + code + " after 3",
      "",
      "fail " + face.symbol(Call.SYNCHRONIZE_STREAM) + " " + code + " after 4",
      "fail " + face.symbol(Call.ELAPSED_TIME) + " " + code + " after 5",
      "fail " + face.symbol(Call.CREATE_STREAM) + " " + code + " after 1",
      "fail " + face.symbol(Call.HOST_MALLOC) + " 2 after 2",
    };
    String allreduce = face.symbol(Call.ALLREDUCE);
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String fault = i == 13 ? "fail " + allreduce + " 4 after 3" : faults[i % faults.length];
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
        .anyMatch(e -> e.startsWith(face.symbol(Call.DEVICE_MALLOC) + " returned 2"))
        .anyMatch(e -> e.startsWith(allreduce + " returned 4"));
    // and the probe still works afterwards
    assertThat(only(run(tiny)).outcome()).isEqualTo(Outcome.SUCCESS);
  }

  @Test
  void oneConfiguredDeviceIsNotApplicable() {
    use(SimFace.ASCEND);
    ProbeRun run = run(new AllreduceSettings(List.of(1024L), 1, 1, List.of(1)));

    assertThat(run.targets()).isEmpty();
    assertThat(run.skippedBecause())
        .isEqualTo("allreduce needs two devices, configured only device 1");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void missingDeviceFailsTheTarget(SimFace face) {
    use(face);
    ProbeRun run = run(new AllreduceSettings(List.of(1024L), 1, 1, List.of(0, 9)));

    TargetResult t = only(run);
    assertThat(t.target()).isEqualTo("0,9");
    assertThat(t.error()).isEqualTo("no device 9 (found " + face.devices() + ")");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void explicitDeviceOrderNamesTheTarget(SimFace face) {
    use(face);
    TargetResult t = only(run(new AllreduceSettings(List.of(2048L), 0, 2, List.of(1, 0))));

    assertThat(t.outcome()).isEqualTo(Outcome.SUCCESS);
    assertThat(t.target()).isEqualTo("1,0");
    assertThat(((AllreduceLatency) t.measurements().get(0)).devices()).isEqualTo("1,0");
  }
}
