package io.linkwatch.peer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * What the probes between servers do after a failure, the host's echoes and the NPU ports' pings
 * alike: a failed path is probed again every round (a recheck, the longest ago first), and a path
 * that fails is kept only with the outcome of a second pass through other members, so that nobody
 * is blamed before this host's own side is known to work (or not).
 */
final class SecondPass {
  private SecondPass() {}

  /** Failed paths probed again each round, at most. */
  static final int RECHECKS = 2;

  /** One second pass after {@code failed}: the other members' results, not yet kept. */
  @FunctionalInterface
  interface Run {
    List<PathResult> after(PathResult failed) throws InterruptedException;
  }

  /** The paths whose last probe blamed someone, not probed this round, the longest ago first. */
  static List<PathResult> rechecks(Collection<PathResult> latest, Set<String> probed) {
    return latest.stream()
        .filter(r -> r.verdict().blames() && !probed.contains(r.peer()))
        .sorted(Comparator.comparing(PathResult::at))
        .limit(RECHECKS)
        .toList();
  }

  /**
   * Whom a second pass tries, in order: the members whose path in {@code latest} passed, the most
   * recent first, then the other {@code members} at random, so that a failure is settled even
   * before anything has passed; never one in {@code excluded}.
   */
  static List<String> candidates(
      Collection<PathResult> latest, Collection<String> members, Set<String> excluded) {
    Set<String> listed =
        members instanceof Set<String> set ? set : new java.util.HashSet<>(members);
    List<String> out = new ArrayList<>();
    latest.stream()
        .filter(r -> r.ok() && !excluded.contains(r.peer()) && listed.contains(r.peer()))
        .sorted(Comparator.comparing(PathResult::at).reversed())
        .map(PathResult::peer)
        .distinct()
        .forEach(out::add);
    Set<String> first = new java.util.HashSet<>(out);
    List<String> rest = new ArrayList<>();
    for (String m : members) {
      if (!excluded.contains(m) && !first.contains(m)) {
        rest.add(m);
      }
    }
    Collections.shuffle(rest);
    out.addAll(rest);
    return out;
  }

  /**
   * The round's results to keep: each failure that needs one with its second pass's outcome (how
   * many of the other members answered; -1 without any), followed by that pass's results.
   */
  static List<PathResult> settle(List<PathResult> results, Run pass) throws InterruptedException {
    List<PathResult> settled = new ArrayList<>();
    for (PathResult r : results) {
      if (!r.verdict().needsSecondPass()) {
        settled.add(r);
        continue;
      }
      List<PathResult> others = pass.after(r);
      settled.add(
          r.withOthersAnswered(
              others.isEmpty() ? -1 : (int) others.stream().filter(PathResult::ok).count()));
      settled.addAll(others);
    }
    return settled;
  }
}
