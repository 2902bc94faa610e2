package io.linkwatch.status;

import java.time.Instant;

/**
 * One finding of the agent's verdict that stands now, e.g. {@code {"code": "LW-DEVICE-SLOW",
 * "state": "FAIL", "subject": "device 3", "evidence": "all 14 of its pairs low ...", "action":
 * "reset the device ...", "first_seen": "2026-12-04T01:00:05Z", "count": 3, "repeats": 1,
 * "escalated": false}}.
 *
 * @param state the verdict's word: {@code WARN}, {@code UNKNOWN} or {@code FAIL}, as the first line
 *     and {@code check --json} write it; an escalated finding's at least its escalation's
 * @param evidence the figures and readings that made it, with their ages
 * @param detail the same text as {@code evidence}, under the name documents had before it (readers
 *     of those keep working)
 * @param action what to do about it, from the actions table; the escalated action once it has come
 *     back often; empty when the table has no row for the code
 * @param firstSeen when the agent's verdict first had it, since it last cleared
 * @param count in how many of the agent's judgements of new results it stood, in a row
 * @param repeats how many times it appeared (came back after clearing, this time included) within
 *     its action row's escalation window; 1 when the row has none
 * @param escalated whether those repeats reached the row's {@code escalate.after}
 * @param subsystem the part of the devices it concerns ({@code links}, {@code pcie}, {@code
 *     host_transfer}, {@code nic}); empty for a finding about no device (the host, a probe)
 * @param devices the devices it concerns, ascending; empty for none
 * @param jobs the jobs running when it appeared: Slurm jobs (their prologs had kept a record and
 *     their epilogs had not, {@code check --job}), then pods that held a busy device ({@code pod
 *     NAMESPACE/NAME}, from the kubelet); empty for none
 */
public record FindingEntry(
    String code,
    String state,
    String subject,
    String evidence,
    String detail,
    String action,
    Instant firstSeen,
    int count,
    int repeats,
    boolean escalated,
    String subsystem,
    java.util.List<Integer> devices,
    java.util.List<String> jobs) {
  public FindingEntry {
    // A document of an agent before actions carries neither evidence nor action.
    evidence = evidence == null ? detail : evidence;
    detail = detail == null ? evidence : detail;
    action = action == null ? "" : action;
    repeats = Math.max(1, repeats);
    subsystem = subsystem == null ? "" : subsystem;
    devices = devices == null ? java.util.List.of() : java.util.List.copyOf(devices);
    jobs = jobs == null ? java.util.List.of() : java.util.List.copyOf(jobs);
  }

  /** A finding no action row speaks of, seen once. */
  public FindingEntry(
      String code, String state, String subject, String evidence, Instant firstSeen, int count) {
    this(code, state, subject, evidence, evidence, "", firstSeen, count, 1, false, "", null, null);
  }
}
