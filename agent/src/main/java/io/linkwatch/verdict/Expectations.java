package io.linkwatch.verdict;

import java.util.List;

/**
 * What a host is judged against: the expected figures of its links, the links its product leaves
 * inactive by design, and what to do about each kind of finding. Each table has the operator's rows
 * first, then the shipped ones.
 */
public record Expectations(
    List<ExpectedFigure> figures, List<InactiveLink> inactiveLinks, FindingActions actions) {
  public Expectations {
    figures = List.copyOf(figures);
    inactiveLinks = List.copyOf(inactiveLinks);
  }

  /** Figures and inactive links, and no actions table. */
  public Expectations(List<ExpectedFigure> figures, List<InactiveLink> inactiveLinks) {
    this(figures, inactiveLinks, FindingActions.NONE);
  }

  /** Figures only: every link is expected up. */
  public static Expectations of(List<ExpectedFigure> figures) {
    return new Expectations(figures, List.of());
  }
}
