package io.linkwatch.verdict;

import java.util.List;

/**
 * What a host is judged against: the expected figures of its links, and the links its product
 * leaves inactive by design. Each list has the operator's rows first, then the shipped ones.
 */
public record Expectations(List<ExpectedFigure> figures, List<InactiveLink> inactiveLinks) {
  public Expectations {
    figures = List.copyOf(figures);
    inactiveLinks = List.copyOf(inactiveLinks);
  }

  /** Figures only: every link is expected up. */
  public static Expectations of(List<ExpectedFigure> figures) {
    return new Expectations(figures, List.of());
  }
}
