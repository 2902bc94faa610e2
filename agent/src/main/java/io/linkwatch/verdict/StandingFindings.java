package io.linkwatch.verdict;

import io.linkwatch.status.FindingEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The findings of the agent's verdict that stand, each with when it was first seen and in how many
 * judgements in a row it stood: what {@code /api/v1/status}'s {@code findings}, the status page's
 * summary and {@code linkwatch_finding} show. A finding is its code and subject; its detail (the
 * figures) may change from one judgement to the next and is the latest. One that is not in a
 * judgement is gone, and starts again from 1 when it comes back. {@code LW-NO-DATA} is not kept: it
 * says that the agent is still starting, not that something is wrong.
 */
public final class StandingFindings {
  private record Key(String code, String subject) {}

  private record Seen(Instant first, int count) {}

  private Map<Key, Seen> seen = new HashMap<>();

  /** The findings standing after {@code verdict}, judged at {@code now}, in the verdict's order. */
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
      Seen standing =
          before == null ? new Seen(now, 1) : new Seen(before.first(), before.count() + 1);
      next.put(key, standing);
      out.add(
          new FindingEntry(
              f.code(),
              f.state().name(),
              f.subject(),
              f.detail(),
              standing.first(),
              standing.count()));
    }
    seen = next;
    return out;
  }
}
