package io.linkwatch.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeDeviceTimeTest {
  private static TargetResult ran(String target, Outcome outcome, double seconds) {
    return new TargetResult(target, outcome, "", seconds, List.of(), "");
  }

  @Test
  void eachTargetsTimeCountsOnTheDevicesItNamesAndSkippedOnesNot() {
    ProbeRun run =
        ProbeRun.of(
            "p2p",
            List.of(
                ran("0->1", Outcome.SUCCESS, 2.0),
                ran("1->0", Outcome.DISCARDED_DEVICE_BUSY, 3.0),
                ran("0->2", Outcome.SKIPPED_DEVICE_BUSY, 0.1),
                ran("links", Outcome.SUCCESS, 9.0)));
    assertThat(ResultStore.deviceTime(run)).containsOnlyKeys(0, 1).containsEntry(0, 5.0);
    assertThat(ResultStore.deviceTime(run)).containsEntry(1, 5.0);
    ProbeRun both = ProbeRun.of("p2p_bidirectional", List.of(ran("0<->3", Outcome.SUCCESS, 4.0)));
    assertThat(ResultStore.deviceTime(both)).containsEntry(0, 4.0).containsEntry(3, 4.0);
  }

  @Test
  void aRunThatFailedBeforeItsTargetsCountsItsTimeOncePerDevice() {
    ProbeRun timedOut =
        ProbeRun.failedBeforeTargets(
                "p2p",
                new TargetResult("p2p", Outcome.TIMEOUT, "worker timed out", 120, List.of(), ""))
            .onTargets(List.of("0->1", "1->0", "0->2", "2->0"));
    assertThat(timedOut.targets()).hasSize(4);
    assertThat(ResultStore.deviceTime(timedOut))
        .containsEntry(0, 120.0)
        .containsEntry(1, 120.0)
        .containsEntry(2, 120.0);
  }
}
