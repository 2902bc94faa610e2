package io.linkwatch.http;

import io.linkwatch.http.CellJudge.State;
import io.linkwatch.http.StatusPageModel.FindingRow;
import io.linkwatch.http.StatusPageModel.Findings;
import io.linkwatch.status.FindingEntry;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.verdict.Expectations;
import io.linkwatch.verdict.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The status page's first table: the agent's standing findings. */
final class FindingsTable {
  private FindingsTable() {}

  /**
   * The agent's standing findings, worst first; with none, what its verdict says of the same
   * document (OK with its counts, or why it cannot judge yet).
   */
  static Findings of(StatusDocument status, Instant now, Expectations expected) {
    List<FindingRow> rows = new ArrayList<>();
    for (FindingEntry f : status.findings()) {
      rows.add(
          new FindingRow(
              f.state(),
              switch (f.state()) {
                case "FAIL" -> State.LOW.css;
                case "WARN" -> State.WARN.css;
                default -> State.NONE.css;
              },
              f.subject(),
              f.code(),
              f.evidence(),
              f.action(),
              StatusFormat.ago(f.firstSeen(), now),
              f.count(),
              f.escalated() ? f.repeats() + " times, escalated" : String.valueOf(f.repeats())));
    }
    rows.sort(Comparator.comparingInt(r -> -severity(r.state())));
    Verdict verdict = Verdict.judge(status, expected);
    return new Findings(rows, !rows.isEmpty(), verdict.firstLine(verdict.state().name()));
  }

  private static int severity(String state) {
    return switch (state) {
      case "FAIL" -> 3;
      case "UNKNOWN" -> 2;
      case "WARN" -> 1;
      default -> 0;
    };
  }
}
