package io.linkwatch.verdict;

import io.linkwatch.verdict.Verdict.State;
import java.time.Duration;
import java.util.Optional;

/**
 * What to do about one kind of finding, and what to do instead when it keeps coming back: a row of
 * the shipped {@code finding-actions.yaml}, or of the config's {@code finding_actions} list, which
 * replaces the shipped row of the same code.
 *
 * <pre>
 * finding_actions:
 *   - code: LW-LINK-DOWN
 *     action: reseat or replace the link's cable; reset the device if it stays down
 *     escalate: {after: 3, within: 24h, state: fail,
 *                action: drain the node and replace the cable or board (RMA)}
 * </pre>
 *
 * @param action what an operator does first
 * @param escalate the stronger action once the finding has appeared {@code after} times within
 *     {@code within}; empty when repeats change nothing
 * @param source where the row comes from ({@code shipped}, or the operator's file)
 */
public record FindingAction(
    String code, String action, Optional<Escalation> escalate, String source) {

  /**
   * @param after how many appearances (each one the finding came back after clearing, the standing
   *     one included) escalate it, at least 2
   * @param within the window those appearances are counted in
   * @param state the severity an escalated finding has at least
   */
  public record Escalation(int after, Duration within, State state, String action) {}

  /** The action for a finding that appeared {@code repeats} times in the row's window. */
  public String actionAfter(int repeats) {
    return escalated(repeats) ? escalate.orElseThrow().action() : action;
  }

  /** Whether {@code repeats} appearances in the row's window escalate the finding. */
  public boolean escalated(int repeats) {
    return escalate.isPresent() && repeats >= escalate.get().after();
  }
}
