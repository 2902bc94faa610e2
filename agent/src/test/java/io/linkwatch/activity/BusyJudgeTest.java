package io.linkwatch.activity;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.Utilization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BusyJudgeTest {
  static final long SELF = 777;
  final BusyJudge judge = new BusyJudge(BusyPolicy.DEFAULTS, SELF, Map.of(0, 3L << 30));

  static DeviceReading dcmi(List<DeviceProcess> processes, Map<Utilization, Double> util) {
    return new DeviceReading(0, "dcmi", processes, util, null, List.of());
  }

  @Test
  void linkwatchsOwnProcessNeverCounts() {
    DeviceActivity a =
        judge.judge(
            dcmi(List.of(new DeviceProcess(SELF, 1L << 30)), Map.of(Utilization.AICORE, 0.0)), 5);
    assertThat(a.busy()).isFalse();
    assertThat(a.otherProcesses()).isEmpty();
    assertThat(a.checkedAtMillis()).isEqualTo(5);
  }

  @Test
  void anotherProcessOrHighUtilizationMakesItBusy() {
    DeviceActivity a =
        judge.judge(
            dcmi(
                List.of(new DeviceProcess(SELF, 0), new DeviceProcess(4242, 2L << 30)),
                Map.of(Utilization.AICORE, 0.8, Utilization.HBM_BANDWIDTH, 0.05)),
            0);
    assertThat(a.busy()).isTrue();
    assertThat(a.reasons())
        .containsExactlyInAnyOrder(
            new BusyReason(BusyReason.Kind.PROCESS, "pid 4242 holds 2GiB"),
            new BusyReason(BusyReason.Kind.UTILIZATION, "aicore 80%"));
    // No process visible (another container), but the HBM is being driven: busy.
    DeviceActivity invisible =
        judge.judge(dcmi(List.of(), Map.of(Utilization.HBM_BANDWIDTH, 0.3)), 0);
    assertThat(invisible.busy()).isTrue();
    assertThat(invisible.why()).isEqualTo("hbm_bandwidth 30%");
  }

  @Test
  void memoryAloneIsComparedWithTheIdleBaseline() {
    DeviceReading idle =
        new DeviceReading(0, "memory", null, Map.of(), 3L << 30, List.of("dcmi: x"));
    assertThat(judge.judge(idle, 0).busy()).isFalse();
    DeviceReading job = new DeviceReading(0, "memory", null, Map.of(), 40L << 30, List.of());
    DeviceActivity a = judge.judge(job, 0);
    assertThat(a.busy()).isTrue();
    assertThat(a.why()).isEqualTo("40GiB of device memory in use, 3GiB when idle");
    assertThat(a.otherProcesses()).isNull();
  }

  @Test
  void nothingReadableIsBusyByDefaultAndIdleWhenConfigured() {
    DeviceReading none =
        new DeviceReading(0, "none", null, Map.of(), null, List.of("dcmi: hung", "memory: failed"));
    DeviceActivity a = judge.judge(none, 0);
    assertThat(a.busy()).isTrue();
    assertThat(a.reasons()).extracting(BusyReason::kind).containsExactly(BusyReason.Kind.UNKNOWN);
    assertThat(a.why()).isEqualTo("no activity reading (dcmi: hung; memory: failed)");
    BusyJudge lenient =
        new BusyJudge(BusyPolicy.DEFAULTS.withUnknown(BusyPolicy.Unknown.IDLE), SELF, Map.of());
    assertThat(lenient.judge(none, 0).busy()).isFalse();
  }
}
