package io.linkwatch.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.probe.collective.AllreduceSettings;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.registry.ProbeKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckLevelTest {
  @Test
  void everyStepOfEveryLevelIsReadByItsProbesOwnReader() {
    for (CheckLevel level : CheckLevel.values()) {
      for (List<Integer> devices : List.of(List.<Integer>of(), List.of(0, 2), List.of(1))) {
        for (CheckLevel.Step step : level.steps(devices)) {
          assertThat(LinkCheck.settings(step)).as(level + " " + step).isNotNull();
        }
      }
    }
  }

  @Test
  void quickCopiesEveryOrderedPairOfTheJobsDevicesAtProductionSize() {
    List<CheckLevel.Step> steps = CheckLevel.QUICK.steps(List.of(0, 2));
    assertThat(steps)
        .extracting(CheckLevel.Step::kind)
        .containsExactly(ProbeKind.TOPOLOGY, ProbeKind.P2P, ProbeKind.ALLREDUCE);
    P2pSettings p2p = (P2pSettings) LinkCheck.settings(steps.get(1));
    assertThat(p2p.sizes()).containsExactly(256L << 20);
    assertThat(p2p.pairs()).extracting(Object::toString).containsExactly("0->2", "2->0");
    AllreduceSettings allreduce = (AllreduceSettings) LinkCheck.settings(steps.get(2));
    assertThat(allreduce.devices()).containsExactly(0, 2);
    assertThat(allreduce.sizes()).containsExactly(1024L);
    // One device has no pair and no group: the topology and link state only.
    assertThat(CheckLevel.QUICK.steps(List.of(1)))
        .extracting(CheckLevel.Step::kind)
        .containsExactly(ProbeKind.TOPOLOGY);
  }

  @Test
  void mediumAddsBothDirectionsHostTransferAndLargeMessages() {
    assertThat(CheckLevel.MEDIUM.steps(List.of()))
        .extracting(CheckLevel.Step::kind)
        .containsExactly(
            ProbeKind.TOPOLOGY,
            ProbeKind.P2P,
            ProbeKind.P2P_BIDIRECTIONAL,
            ProbeKind.HOST_TRANSFER,
            ProbeKind.ALLREDUCE);
    assertThat(CheckLevel.MEDIUM.steps(List.of(3)))
        .extracting(CheckLevel.Step::kind)
        .containsExactly(ProbeKind.TOPOLOGY, ProbeKind.HOST_TRANSFER);
    // The budgets the levels promise: a prolog under Slurm's 60 s, an epilog under 3 minutes.
    assertThat(CheckLevel.QUICK.defaultTimeout()).isLessThan(Duration.ofSeconds(60));
    assertThat(CheckLevel.MEDIUM.defaultTimeout()).isLessThanOrEqualTo(Duration.ofMinutes(3));
    assertThat(CheckLevel.parse(" Medium ")).isEqualTo(CheckLevel.MEDIUM);
    assertThatThrownBy(() -> CheckLevel.parse("full"))
        .hasMessage("'full' is not a level: use quick or medium");
  }
}
