package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.verdict.Verdict;
import io.linkwatch.verdict.Verdict.Finding;
import io.linkwatch.verdict.Verdict.State;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictFormatTest {
  static String print(Verdict v) {
    StringWriter out = new StringWriter();
    VerdictFormat.TEXT.print(v, new PrintWriter(out, true));
    return out.toString();
  }

  /** The first line already says all of one finding: it is not said again under it. */
  @Test
  void oneFindingTheFirstLineCarriesIsSaidOnce() {
    Verdict gone = Verdict.unreachable("http://127.0.0.1:1", "connection refused");
    assertThat(print(gone).lines())
        .containsExactly("UNKNOWN - agent at http://127.0.0.1:1: LW-NO-AGENT connection refused");
  }

  @Test
  void aCutFirstLineOrSeveralFindingsAreListedWhole() {
    Finding longOne =
        new Finding(
            "LW-LINK-ERRORS",
            State.WARN,
            "dev1 HCCS link 2 (to 2)",
            "8.2 errors/s, threshold 1/s (read 15s ago) and some more words to pass 80");
    Verdict cut = new Verdict(State.WARN, List.of(longOne), longOne.line(), List.of());
    assertThat(print(cut).lines())
        .hasSize(2)
        .last()
        .asString()
        .isEqualTo("  warn " + longOne.line());

    Finding other = new Finding("LW-LINK-DOWN", State.FAIL, "dev0 HCCS link 3 (to 3)", "down");
    Verdict two =
        new Verdict(State.FAIL, List.of(other, longOne), other.line() + " (+0 more)", List.of("n"));
    assertThat(print(two).lines())
        .containsExactly(
            "FAIL - dev0 HCCS link 3 (to 3): LW-LINK-DOWN down (+0 more)",
            "  fail dev0 HCCS link 3 (to 3): LW-LINK-DOWN down",
            "  warn " + longOne.line(),
            "  note: n");
  }
}
