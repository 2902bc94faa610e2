package io.linkwatch.verdict;

import io.linkwatch.status.FindingEntry;
import io.linkwatch.verdict.Verdict.State;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The findings of the agent's verdict that stand, each with when it was first seen, in how many
 * judgements in a row it stood, how often it came back, and what to do about it: what {@code
 * /api/v1/status}'s {@code findings}, the status page's summary and {@code linkwatch_finding} show.
 * A finding is its code and subject; its evidence (the figures) may change from one judgement to
 * the next and is the latest. One that is not in a judgement is gone, and starts again from 1 when
 * it comes back; each time it comes back within its action row's escalation window counts as a
 * repeat, and enough repeats escalate it: its severity rises to the row's and its action becomes
 * the row's stronger one (a link that flaps three times a day wants a new cable, not a reseat). A
 * culprit named from one round's figures (a device, a link, a switch, a node, the host) stands
 * unconfirmed until a second round names it too, or a link counter of one of its devices backs it
 * in the same judgement: until then {@code status} says it is unattributed. {@code LW-NO-DATA} is
 * not kept: it says that the agent is still starting, not that something is wrong. Repeats are
 * counted in memory: a restarted agent counts from 1.
 */
public final class StandingFindings {
  private record Key(String code, String subject) {}

  /**
   * @param round the round a culprit was first named from; null for other findings
   * @param confirmed whether a second round (or a link counter) backed it
   */
  private record Seen(
      Instant first, int count, List<String> jobs, Instant round, boolean confirmed) {}

  private final FindingActions actions;
  private final java.util.function.Supplier<List<String>> runningJobs;
  private Map<Key, Seen> seen = new HashMap<>();

  /** When each finding appeared, oldest first, for as long as the table's longest window. */
  private final Map<Key, Deque<Instant>> appearances = new HashMap<>();

  /**
   * @param runningJobs the jobs running now (a prolog kept their record, no epilog yet): a finding
   *     that appears while they run names them
   */
  public StandingFindings(
      FindingActions actions, java.util.function.Supplier<List<String>> runningJobs) {
    this.actions = actions;
    this.runningJobs = runningJobs;
  }

  /** No jobs known. */
  public StandingFindings(FindingActions actions) {
    this(actions, List::of);
  }

  /** Without an actions table: nothing escalates and no finding carries an action. */
  public StandingFindings() {
    this(FindingActions.NONE);
  }

  /**
   * The findings standing after {@code verdict}, judged at {@code now}, in the verdict's order. The
   * verdict is the agent's own judgement of its results alone (not of these findings), so that an
   * escalation ends when its window no longer holds enough repeats.
   */
  public synchronized List<FindingEntry> observe(Verdict verdict, Instant now) {
    Map<Key, Seen> next = new HashMap<>();
    List<FindingEntry> out = new ArrayList<>();
    for (Verdict.Finding f : verdict.findings()) {
      if (VerdictLog.QUIET.contains(f.code())) {
        continue;
      }
      Key key = new Key(f.code(), f.subject());
      if (next.containsKey(key)) {
        continue;
      }
      Seen before = seen.get(key);
      boolean confirmed =
          !f.pattern()
              || (before != null && (before.confirmed() || !f.round().equals(before.round())))
              || backedByCounter(f, verdict);
      Seen standing =
          before == null
              ? new Seen(now, 1, runningJobs.get(), f.round(), confirmed)
              : new Seen(
                  before.first(), before.count() + 1, before.jobs(), before.round(), confirmed);
      if (confirmed && (before == null || !before.confirmed())) {
        // An appearance counts once it is named: a pattern of one round that the next did not
        // show again (a run that missed its deadline on a loaded host) repeats nothing.
        appearances.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(now);
      }
      next.put(key, standing);
      if (!confirmed) {
        // Kept under its own key, so that the second round confirms it; shown as what it is yet.
        Verdict.Finding shown = Verdict.unattributed(f, actions);
        out.add(
            new FindingEntry(
                shown.code(),
                shown.state().name(),
                shown.subject(),
                shown.detail(),
                shown.detail(),
                shown.action(),
                standing.first(),
                standing.count(),
                1,
                false,
                "",
                List.of(),
                standing.jobs()));
        continue;
      }
      Optional<FindingAction> row = actions.of(f.code());
      int repeats = repeats(key, row, standing.first());
      boolean escalated = row.map(r -> r.escalated(repeats)).orElse(false);
      State state = f.state();
      if (escalated) {
        State to = row.get().escalate().orElseThrow().state();
        state = to.compareTo(state) > 0 ? to : state;
      }
      String action = row.map(r -> r.actionAfter(repeats)).orElse(f.action());
      out.add(
          new FindingEntry(
              f.code(),
              state.name(),
              f.subject(),
              f.detail(),
              f.detail(),
              action,
              standing.first(),
              standing.count(),
              repeats,
              escalated,
              f.scope().subsystem() == null ? "" : f.scope().subsystem().label(),
              f.scope().devices(),
              standing.jobs()));
    }
    seen = next;
    forget(now);
    return out;
  }

  /** Whether a finding of a link's own counters or state concerns one of {@code f}'s devices. */
  private static boolean backedByCounter(Verdict.Finding f, Verdict verdict) {
    return verdict.findings().stream().anyMatch(g -> Verdict.backs(g, f));
  }

  /**
   * The appearances of {@code key} in its row's window before the standing one (which began at
   * {@code first}), and that one: an escalation holds for as long as the finding it escalated
   * stands, however long ago its repeats were.
   */
  private int repeats(Key key, Optional<FindingAction> row, Instant first) {
    Duration within =
        row.flatMap(FindingAction::escalate)
            .map(FindingAction.Escalation::within)
            .orElse(Duration.ZERO);
    Instant since = first.minus(within);
    int earlier = 0;
    for (Instant at : appearances.getOrDefault(key, new ArrayDeque<>())) {
      if (at.isBefore(first) && !at.isBefore(since)) {
        earlier++;
      }
    }
    return earlier + 1;
  }

  /**
   * Drops the appearances no window counts any more (those a standing finding's repeats count
   * stay), and the findings left with none.
   */
  private void forget(Instant now) {
    Duration longest = actions.longestWindow();
    appearances
        .entrySet()
        .removeIf(
            e -> {
              Seen standing = seen.get(e.getKey());
              Instant horizon = (standing == null ? now : standing.first()).minus(longest);
              Deque<Instant> times = e.getValue();
              while (!times.isEmpty() && times.peekFirst().isBefore(horizon)) {
                times.removeFirst();
              }
              return times.isEmpty();
            });
  }
}
