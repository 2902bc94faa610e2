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

  /** LW-LINK-ERRORS warns; three appearances in an hour fail it, with a stronger action. */
  static final FindingActions ERRORS_ESCALATE =
      new FindingActions(
          List.of(
              new FindingAction(
                  "LW-LINK-ERRORS",
                  "watch the link",
                  java.util.Optional.of(
                      new FindingAction.Escalation(
                          3, java.time.Duration.ofHours(1), State.FAIL, "replace the cable")),
                  "test")));

  static Finding errors() {
    return new Finding("LW-LINK-ERRORS", State.WARN, "dev0 HCCS link 3 (to 3)", "2.5 CRC/s");
  }

  @Test
  void aFindingThatKeepsComingBackEscalatesToItsRowsSeverityAndAction() {
    StandingFindings standing = new StandingFindings(ERRORS_ESCALATE);
    FindingEntry first = standing.observe(verdict(errors()), T0).get(0);
    assertThat(first.state()).isEqualTo("WARN");
    assertThat(first.action()).isEqualTo("watch the link");
    assertThat(first.repeats()).isEqualTo(1);
    assertThat(first.escalated()).isFalse();
    // Standing on does not repeat it: still the first appearance.
    assertThat(standing.observe(verdict(errors()), T0.plusSeconds(60)).get(0).repeats())
        .isEqualTo(1);
    standing.observe(verdict(), T0.plusSeconds(120));
    FindingEntry second = standing.observe(verdict(errors()), T0.plusSeconds(600)).get(0);
    assertThat(second.repeats()).isEqualTo(2);
    assertThat(second.escalated()).isFalse();
    assertThat(second.state()).isEqualTo("WARN");
    standing.observe(verdict(), T0.plusSeconds(900));
    FindingEntry third = standing.observe(verdict(errors()), T0.plusSeconds(1200)).get(0);
    assertThat(third.repeats()).isEqualTo(3);
    assertThat(third.escalated()).isTrue();
    assertThat(third.state()).isEqualTo("FAIL");
    assertThat(third.action()).isEqualTo("replace the cable");
    assertThat(third.evidence()).isEqualTo("2.5 CRC/s");
    // It stays escalated while it stands, however long: its appearances were in the window.
    assertThat(standing.observe(verdict(errors()), T0.plusSeconds(7200)).get(0).escalated())
        .isTrue();
  }

  @Test
  void appearancesOutsideTheWindowDoNotEscalate() {
    StandingFindings standing = new StandingFindings(ERRORS_ESCALATE);
    // Three appearances, each 40 minutes apart: never three within an hour.
    for (int i = 0; i < 3; i++) {
      Instant at = T0.plusSeconds(i * 2400L);
      FindingEntry e = standing.observe(verdict(errors()), at).get(0);
      assertThat(e.escalated()).as("appearance %d", i + 1).isFalse();
      assertThat(e.repeats()).isEqualTo(Math.min(i + 1, 2));
      standing.observe(verdict(), at.plusSeconds(60));
    }
  }

  @Test
  void withoutAnEscalationRowRepeatsChangeNothing() {
    StandingFindings standing = new StandingFindings(ERRORS_ESCALATE);
    for (int i = 0; i < 5; i++) {
      FindingEntry e = standing.observe(verdict(slow("50 %")), T0.plusSeconds(i * 20L)).get(0);
      assertThat(e.state()).isEqualTo("FAIL");
      assertThat(e.repeats()).isEqualTo(1);
      assertThat(e.escalated()).isFalse();
      standing.observe(verdict(), T0.plusSeconds(i * 20L + 10));
    }
  }

  /** A finding that appears while jobs run names them, and keeps them while it stands. */
  @Test
  void aFindingNamesTheJobsRunningWhenItAppeared() {
    java.util.concurrent.atomic.AtomicReference<List<String>> jobs =
        new java.util.concurrent.atomic.AtomicReference<>(List.of("1234"));
    StandingFindings standing = new StandingFindings(FindingActions.NONE, jobs::get);
    assertThat(standing.observe(verdict(errors()), T0).get(0).jobs()).containsExactly("1234");
    jobs.set(List.of("1235"));
    assertThat(standing.observe(verdict(errors()), T0.plusSeconds(10)).get(0).jobs())
        .containsExactly("1234");
    standing.observe(verdict(), T0.plusSeconds(20));
    assertThat(standing.observe(verdict(errors()), T0.plusSeconds(30)).get(0).jobs())
        .containsExactly("1235");
    jobs.set(List.of());
    standing.observe(verdict(), T0.plusSeconds(40));
    assertThat(standing.observe(verdict(errors()), T0.plusSeconds(50)).get(0).jobs()).isEmpty();
  }

  /** Device 3 slow, named from the round that ended at {@code round}. */
  static Finding slowInRound(java.time.Instant round) {
    return slow("all 14 of its pairs low").about(Subsystem.LINKS, 3).inRound(round);
  }

  /**
   * A culprit from one round stands as unattributed, however often that round is judged again; the
   * next round showing it names it, first seen when the pattern was.
   */
  @Test
  void aCulpritIsNamedOnlyOnceASecondRoundShowsIt() {
    StandingFindings standing = new StandingFindings();
    java.time.Instant r1 = T0.minusSeconds(1);
    FindingEntry once = standing.observe(verdict(slowInRound(r1)), T0).get(0);
    assertThat(once.code()).isEqualTo("LW-UNATTRIBUTED");
    assertThat(once.subject()).isEqualTo("pattern: device 3");
    assertThat(once.evidence())
        .isEqualTo(
            "one round: LW-DEVICE-SLOW all 14 of its pairs low; named if the next round shows it"
                + " too");
    assertThat(once.devices()).isEmpty();
    // The same round judged again (a passive read moved the store): still one round.
    assertThat(standing.observe(verdict(slowInRound(r1)), T0.plusSeconds(5)).get(0).code())
        .isEqualTo("LW-UNATTRIBUTED");
    FindingEntry named =
        standing.observe(verdict(slowInRound(T0.plusSeconds(9))), T0.plusSeconds(10)).get(0);
    assertThat(named.code()).isEqualTo("LW-DEVICE-SLOW");
    assertThat(named.subject()).isEqualTo("device 3");
    assertThat(named.firstSeen()).isEqualTo(T0);
    assertThat(named.devices()).containsExactly(3);
    // Gone for a round, and back: one round again.
    standing.observe(verdict(), T0.plusSeconds(20));
    assertThat(
            standing
                .observe(verdict(slowInRound(T0.plusSeconds(29))), T0.plusSeconds(30))
                .get(0)
                .code())
        .isEqualTo("LW-UNATTRIBUTED");
  }

  /** A counter of one of its devices' links backs a culprit at once. */
  @Test
  void aLinkCounterOfTheSameDeviceBacksACulpritAtOnce() {
    StandingFindings standing = new StandingFindings();
    Finding crc =
        new Finding("LW-LINK-ERRORS", State.WARN, "dev3 HCCS link 5 (to 5)", "9 errors/s")
            .about(Subsystem.LINKS, 3);
    assertThat(standing.observe(verdict(slowInRound(T0), crc), T0))
        .extracting(FindingEntry::code)
        .containsExactly("LW-DEVICE-SLOW", "LW-LINK-ERRORS");
    // On another device's link it backs nothing.
    Finding elsewhere =
        new Finding("LW-LINK-ERRORS", State.WARN, "dev6 HCCS link 5 (to 5)", "9 errors/s")
            .about(Subsystem.LINKS, 6);
    assertThat(new StandingFindings().observe(verdict(slowInRound(T0), elsewhere), T0))
        .extracting(FindingEntry::code)
        .containsExactly("LW-UNATTRIBUTED", "LW-LINK-ERRORS");
  }

  /**
   * A pattern one round shows and the next does not (a missed run) is no appearance: only named
   * appearances escalate. Counted from unconfirmed rounds, the second naming below would escalate.
   */
  @Test
  void onlyNamedAppearancesCountAsRepeats() {
    FindingActions twice =
        new FindingActions(
            List.of(
                new FindingAction(
                    "LW-DEVICE-SLOW",
                    "reset it",
                    java.util.Optional.of(
                        new FindingAction.Escalation(
                            2, java.time.Duration.ofHours(1), State.FAIL, "replace it")),
                    "test")));
    StandingFindings standing = new StandingFindings(twice);
    // One round, then a round without it, then two rounds: named once.
    standing.observe(verdict(slowInRound(T0)), T0);
    standing.observe(verdict(), T0.plusSeconds(10));
    standing.observe(verdict(slowInRound(T0.plusSeconds(20))), T0.plusSeconds(20));
    FindingEntry named =
        standing.observe(verdict(slowInRound(T0.plusSeconds(30))), T0.plusSeconds(30)).get(0);
    assertThat(named.code()).isEqualTo("LW-DEVICE-SLOW");
    assertThat(named.repeats()).isEqualTo(1);
    assertThat(named.escalated()).isFalse();
    // Gone, and named again: the second appearance escalates.
    standing.observe(verdict(), T0.plusSeconds(40));
    standing.observe(verdict(slowInRound(T0.plusSeconds(50))), T0.plusSeconds(50));
    FindingEntry again =
        standing.observe(verdict(slowInRound(T0.plusSeconds(60))), T0.plusSeconds(60)).get(0);
    assertThat(again.repeats()).isEqualTo(2);
    assertThat(again.escalated()).isTrue();
    assertThat(again.action()).isEqualTo("replace it");
  }
}
