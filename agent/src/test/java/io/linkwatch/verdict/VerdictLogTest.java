package io.linkwatch.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.LogCapture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class VerdictLogTest {
  @RegisterExtension final LogCapture logged = new LogCapture("io.linkwatch.verdict.VerdictLog");

  static final Verdict.Finding LOW =
      new Verdict.Finding(
          "LW-BELOW-FLOOR",
          Verdict.State.FAIL,
          "p2p 0->1 SIO 256MiB",
          "83.1 GB/s, floor 124.1 GB/s");

  static Verdict verdict(Verdict.Finding... findings) {
    return new Verdict(
        findings.length == 0 ? Verdict.State.OK : findings[0].state(),
        List.of(findings),
        "",
        List.of());
  }

  List<String> lines() {
    return logged.events().stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
  }

  @Test
  void aFindingIsLoggedOnceWhileItLastsAndItsRecoveryOnce() {
    VerdictLog log = new VerdictLog();
    log.observe(verdict());
    // The figure moves from run to run; the finding is the same.
    log.observe(verdict(LOW));
    log.observe(
        verdict(
            new Verdict.Finding(
                LOW.code(), LOW.state(), LOW.subject(), "82.7 GB/s, floor 124.1 GB/s")));
    log.observe(verdict(LOW));
    log.observe(verdict());
    log.observe(verdict());
    assertThat(lines())
        .containsExactly(
            "WARN p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s",
            "INFO p2p 0->1 SIO 256MiB: recovered (was LW-BELOW-FLOOR)");
  }

  @Test
  void aChangeOfCodeIsANewWarningAndTheAgentStartingIsNone() {
    VerdictLog log = new VerdictLog();
    Verdict.Finding noData =
        new Verdict.Finding("LW-NO-DATA", Verdict.State.UNKNOWN, "agent", "no figures yet");
    Verdict.Finding warn =
        new Verdict.Finding(
            "LW-BELOW-EXPECTED", Verdict.State.WARN, LOW.subject(), "110.0 GB/s, expected 137.9");
    log.observe(verdict(noData));
    log.observe(verdict(warn));
    log.observe(verdict(LOW));
    Verdict.Finding down =
        new Verdict.Finding("LW-LINK-DOWN", Verdict.State.FAIL, "link 0<->3 HCCS", "down");
    log.observe(verdict(LOW, down));
    log.observe(verdict(down));
    assertThat(lines())
        .containsExactly(
            "WARN p2p 0->1 SIO 256MiB: LW-BELOW-EXPECTED 110.0 GB/s, expected 137.9",
            "WARN p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s",
            "WARN link 0<->3 HCCS: LW-LINK-DOWN down",
            "INFO p2p 0->1 SIO 256MiB: recovered (was LW-BELOW-FLOOR)");
  }
}
