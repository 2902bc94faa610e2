package io.linkwatch.http;

import io.linkwatch.verdict.ExpectedFigure;
import io.linkwatch.verdict.ExpectedFigures;
import io.linkwatch.verdict.Verdict;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A status page cell's colour: against the expected-figures table's row where it has one for the
 * product, link and size (its fail and warn bands), and otherwise against the median of the series'
 * earlier figures in the agent's history ({@link HistoryReferences}), with the bands of the table's
 * seeds: at least {@link ExpectedFigures#WARN_SHARE} of the median is ok, at least {@link
 * ExpectedFigures#FAIL_SHARE} warn, below it low.
 */
final class CellJudge {
  /** The colour states of a cell, as its {@code data-state} and CSS class name them. */
  enum State {
    OK("ok"),
    WARN("warn"),
    LOW("low"),
    NONE("none");

    final String css;

    State(String css) {
      this.css = css;
    }
  }

  /** A cell's colour and why. */
  record Judgement(State state, String why) {}

  private final List<ExpectedFigure> expected;

  CellJudge(List<ExpectedFigure> expected) {
    this.expected = List.copyOf(expected);
  }

  /**
   * Judges {@code value}, the latest figure of the history series {@code series}: against the
   * expected table's row if there is one, else against the median of the series' earlier figures.
   */
  Judgement judge(
      StatusFacts facts,
      String series,
      double value,
      boolean latency,
      String deviceName,
      String link,
      String probe,
      long size) {
    Optional<ExpectedFigure> row = ExpectedFigures.find(expected, deviceName, link, probe, size);
    if (row.isPresent()) {
      ExpectedFigure f = row.get();
      Verdict.State v = f.judge(value);
      State state =
          v == Verdict.State.FAIL ? State.LOW : v == Verdict.State.WARN ? State.WARN : State.OK;
      String side = latency ? "above " : "below ";
      return new Judgement(
          state,
          "expected: fails "
              + side
              + f.quantity().format(f.fail())
              + ", warns "
              + side
              + f.quantity().format(f.warn())
              + " ("
              + f.source()
              + ")");
    }
    HistoryReferences.Reference r = facts.references().get(series);
    if (r == null) {
      return new Judgement(State.NONE, "no expected figure, no earlier figure in the history yet");
    }
    double ratio = latency ? r.median() / value : value / r.median();
    State state =
        ratio >= ExpectedFigures.WARN_SHARE
            ? State.OK
            : ratio >= ExpectedFigures.FAIL_SHARE ? State.WARN : State.LOW;
    return new Judgement(
        state,
        String.format(
            Locale.ROOT,
            "%.0f %% of this series' median over its %d earlier figures in the history",
            100 * ratio,
            r.figures()));
  }
}
