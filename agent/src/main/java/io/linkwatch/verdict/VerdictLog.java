package io.linkwatch.verdict;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's journal of its own verdict: each finding is logged at WARN when it appears or its
 * code changes, and its subject at INFO when it clears, once per change and not once per run, so
 * that {@code journalctl -p warning} shows what went wrong and when, and stays quiet while nothing
 * changes. {@code LW-NO-DATA} is not logged: it only says that the agent is still starting.
 *
 * <pre>
 * WARN  VerdictLog: p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s
 * INFO  VerdictLog: p2p 0->1 SIO 256MiB: recovered (was LW-BELOW-FLOOR)
 * </pre>
 */
public final class VerdictLog {
  private static final Logger log = LoggerFactory.getLogger(VerdictLog.class);

  /** The findings not logged: a state of the agent, not of a device or link. */
  static final Set<String> QUIET = Set.of("LW-NO-DATA");

  /** The codes of each subject's findings at the last observation. */
  private final Map<String, Set<String>> last = new LinkedHashMap<>();

  /** Logs what changed since the last verdict observed. */
  public synchronized void observe(Verdict verdict) {
    Map<String, Set<String>> now = new LinkedHashMap<>();
    Map<String, Verdict.Finding> first = new LinkedHashMap<>();
    for (Verdict.Finding f : verdict.findings()) {
      if (QUIET.contains(f.code())) {
        continue;
      }
      now.computeIfAbsent(f.subject(), s -> new TreeSet<>()).add(f.code());
      first.putIfAbsent(f.subject() + " " + f.code(), f);
    }
    for (Map.Entry<String, Set<String>> e : now.entrySet()) {
      Set<String> before = last.getOrDefault(e.getKey(), Set.of());
      for (String code : e.getValue()) {
        if (!before.contains(code)) {
          log.warn("{}", first.get(e.getKey() + " " + code).line());
        }
      }
    }
    for (Map.Entry<String, Set<String>> e : last.entrySet()) {
      if (!now.containsKey(e.getKey())) {
        log.info("{}: recovered (was {})", e.getKey(), String.join(", ", e.getValue()));
      }
    }
    last.clear();
    last.putAll(now);
  }
}
