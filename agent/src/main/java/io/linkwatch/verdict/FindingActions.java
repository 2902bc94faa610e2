package io.linkwatch.verdict;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The actions table in force: the operator's rows first, then the shipped ones; the first row for a
 * finding's code says what to do about it. A code with no row has no action (the finding's own
 * evidence is all there is).
 */
public record FindingActions(List<FindingAction> rows) {
  /** No actions: findings carry their evidence only. */
  public static final FindingActions NONE = new FindingActions(List.of());

  public FindingActions {
    rows = List.copyOf(rows);
  }

  public Optional<FindingAction> of(String code) {
    return rows.stream().filter(r -> r.code().equals(code)).findFirst();
  }

  /**
   * How long a cleared finding's appearances are remembered: the longest escalation window in the
   * table, so that no row counts fewer appearances than it asks for.
   */
  public Duration longestWindow() {
    return rows.stream()
        .flatMap(r -> r.escalate().stream())
        .map(FindingAction.Escalation::within)
        .max(Duration::compareTo)
        .orElse(Duration.ZERO);
  }
}
