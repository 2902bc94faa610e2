package io.linkwatch.config;

import io.linkwatch.util.Durations;
import io.linkwatch.verdict.FindingAction;
import io.linkwatch.verdict.Verdict.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One row of the {@code finding_actions} list (the operator's, then the shipped table's): what to
 * do about a finding's code, and the stronger action once it keeps coming back ({@link
 * FindingAction}).
 */
final class FindingActionReader {
  /** The fewest appearances that may escalate: one is every finding. */
  static final int MIN_AFTER = 2;

  private FindingActionReader() {}

  /**
   * Every row of a {@code finding_actions} list: one per code.
   *
   * @param known the codes a row may name (the shipped table's); empty for the shipped table
   *     itself, whose codes are the list
   * @param source where the rows come from, unless a row says
   */
  static List<FindingAction> readAll(List<ConfigNode> rows, Set<String> known, String source) {
    List<FindingAction> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (ConfigNode row : rows) {
      read(row, known, source)
          .ifPresent(
              a -> {
                if (seen.add(a.code())) {
                  out.add(a);
                } else {
                  row.problem("code", a.code() + " has a row above: one row per code");
                }
              });
    }
    return out;
  }

  private static Optional<FindingAction> read(
      ConfigNode row, Set<String> known, String defaultSource) {
    String code = row.scalar("code", "", String::strip);
    String action = row.scalar("action", "", String::strip);
    String source = row.scalar("source", defaultSource, String::strip);
    Optional<FindingAction.Escalation> escalate =
        row.has("escalate") ? escalation(row.mapping("escalate")) : Optional.empty();
    row.rejectUnknown();
    boolean ok = escalate.isPresent() || !row.has("escalate");
    if (code.isEmpty()) {
      row.problem("code", "required: a finding's code, e.g. LW-LINK-DOWN");
      ok = false;
    } else if (!known.isEmpty() && !known.contains(code)) {
      row.problem(
          "code", "'" + code + "' is no finding's code; the codes are " + String.join(", ", known));
      ok = false;
    }
    if (action.isEmpty()) {
      row.problem("action", "required: what an operator does about it, in a few words");
      ok = false;
    }
    return ok ? Optional.of(new FindingAction(code, action, escalate, source)) : Optional.empty();
  }

  private static Optional<FindingAction.Escalation> escalation(ConfigNode node) {
    int after = node.integer("after", -1, MIN_AFTER, 1_000);
    Duration within = node.scalar("within", null, Durations::parse);
    State state = node.scalar("state", State.FAIL, FindingActionReader::state);
    String action = node.scalar("action", "", String::strip);
    node.rejectUnknown();
    boolean ok = true;
    if (!node.has("after")) {
      node.problem("after", "required: how many appearances escalate, " + MIN_AFTER + " or more");
      ok = false;
    } else if (after < MIN_AFTER) {
      ok = false; // integer() reported the range
    }
    if (!node.has("within")) {
      node.problem("within", "required: the window the appearances are counted in, e.g. 24h");
      ok = false;
    } else if (within == null) {
      ok = false; // the parse reported it
    }
    if (action.isEmpty()) {
      node.problem("action", "required: what an operator does once it keeps coming back");
      ok = false;
    }
    return ok
        ? Optional.of(new FindingAction.Escalation(after, within, state, action))
        : Optional.empty();
  }

  private static State state(String text) {
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "warn" -> State.WARN;
      case "fail" -> State.FAIL;
      default ->
          throw new IllegalArgumentException(
              "'" + text.strip() + "' is not a severity an escalation raises to: use warn or fail");
    };
  }
}
