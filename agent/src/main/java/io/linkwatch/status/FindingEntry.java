package io.linkwatch.status;

import java.time.Instant;

/**
 * One finding of the agent's verdict that stands now, e.g. {@code {"code": "LW-DEVICE-SLOW",
 * "state": "FAIL", "subject": "device 3", "detail": "all 14 of its pairs low ...", "first_seen":
 * "2026-12-04T01:00:05Z", "count": 3}}.
 *
 * @param state the verdict's word: {@code WARN}, {@code UNKNOWN} or {@code FAIL}, as the first line
 *     and {@code check --json} write it
 * @param firstSeen when the agent's verdict first had it, since it last cleared
 * @param count in how many of the agent's judgements of new results it stood, in a row
 */
public record FindingEntry(
    String code, String state, String subject, String detail, Instant firstSeen, int count) {}
