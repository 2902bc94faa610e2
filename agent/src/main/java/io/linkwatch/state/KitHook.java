package io.linkwatch.state;

import java.util.Locale;
import java.util.Optional;

/**
 * The parts of the job-boundary kit that act on a verdict, and what each does with a FAIL: the
 * Slurm health check drains the node, a prolog or epilog that fails makes Slurm drain it,
 * node-problem-detector sets its condition. In shadow mode ({@code verdicts.enforce: false}) each
 * says what it would have done instead, and counts it ({@link ShadowRecord}).
 */
public enum KitHook {
  HEALTHCHECK("drain"),
  PROLOG("drain"),
  EPILOG("drain"),
  NPD("condition");

  private final String action;

  KitHook(String action) {
    this.action = action;
  }

  /** As {@code --hook} and the {@code hook} label name it, e.g. {@code healthcheck}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What it does with a FAIL: {@code drain} or {@code condition}. */
  public String action() {
    return action;
  }

  public static Optional<KitHook> byId(String id) {
    for (KitHook h : values()) {
      if (h.id().equals(id)) {
        return Optional.of(h);
      }
    }
    return Optional.empty();
  }
}
