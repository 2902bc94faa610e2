package io.linkwatch.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.status.FindingEntry;
import io.linkwatch.verdict.Verdict.Finding;
import io.linkwatch.verdict.Verdict.State;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandingFindingsTest {
  static final Instant T0 = Instant.parse("2026-12-04T01:00:00Z");

  static Verdict verdict(Finding... findings) {
    return new Verdict(
        findings.length == 0 ? State.OK : findings[0].state(), List.of(findings), "", List.of());
  }

  static Finding slow(String detail) {
    return new Finding("LW-DEVICE-SLOW", State.FAIL, "device 3", detail);
  }

  @Test
  void aFindingKeepsWhenItWasFirstSeenAndCountsTheJudgementsItStoodIn() {
    StandingFindings standing = new StandingFindings();
    assertThat(standing.observe(verdict(slow("50 %")), T0))
        .containsExactly(new FindingEntry("LW-DEVICE-SLOW", "FAIL", "device 3", "50 %", T0, 1));
    // The same code and subject with other figures: the same finding, its detail the latest.
    assertThat(standing.observe(verdict(slow("48 %")), T0.plusSeconds(10)))
        .containsExactly(new FindingEntry("LW-DEVICE-SLOW", "FAIL", "device 3", "48 %", T0, 2));
    // Gone from one judgement: it cleared, and comes back as new.
    assertThat(standing.observe(verdict(), T0.plusSeconds(20))).isEmpty();
    assertThat(standing.observe(verdict(slow("50 %")), T0.plusSeconds(30)))
        .extracting(FindingEntry::firstSeen, FindingEntry::count)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(30), 1));
  }

  @Test
  void anAgentStillStartingHasNoStandingFinding() {
    StandingFindings standing = new StandingFindings();
    Finding starting = new Finding("LW-NO-DATA", State.UNKNOWN, "agent", "no figures yet");
    assertThat(standing.observe(verdict(starting), T0)).isEmpty();
  }
}
