package io.linkwatch.cli;

import io.linkwatch.state.JobRecord;
import io.linkwatch.state.JobRecord.Counters;
import io.linkwatch.state.JobRecord.JobMark;
import io.linkwatch.status.FindingEntry;
import io.linkwatch.util.ByteSize;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code linkwatch status --job ID}: what one job's links did, from the record its prolog's and
 * epilog's checks kept ({@link JobRecord}). The checks before and after it are its last idle probe
 * and its first; between them, every link's and port's counters changed by the job: the error
 * counts first (what a link that went bad under the job shows), then the bytes moved. For a job
 * still running the counters run to the agent's reading now. The agent's standing findings that
 * appeared while it ran name it.
 *
 * @param end the epilog's mark, or the agent's reading now for a running job; null when neither
 * @param findings the agent's standing findings that name the job
 */
record JobReport(JobRecord record, JobMark end, boolean running, List<FindingEntry> findings) {

  /**
   * One link's or port's change over the job.
   *
   * @param errors each error counter's increase, the non-zero ones
   * @param bytes bytes sent and received over the job, where both ends had the counters
   */
  record Change(String subject, Map<String, Long> errors, Long bytes) {}

  /**
   * {@code status --job ID --json}.
   *
   * @param before the prolog's check; null when none was kept
   * @param after the epilog's check, or the agent's reading now for a running job
   */
  record Output(
      String job,
      boolean running,
      JobMark before,
      JobMark after,
      List<Change> changes,
      List<FindingEntry> findings) {}

  Output output() {
    return new Output(record.job(), running, record.start(), end, changes(), findings);
  }

  /** The counters that changed, error counters' increases first. */
  List<Change> changes() {
    if (record.start() == null || end == null) {
      return List.of();
    }
    Map<String, Counters> before = new LinkedHashMap<>();
    record.start().counters().forEach(c -> before.put(c.subject(), c));
    List<Change> withErrors = new ArrayList<>();
    List<Change> quiet = new ArrayList<>();
    for (Counters after : end.counters()) {
      Counters b = before.get(after.subject());
      if (b == null) {
        continue;
      }
      Map<String, Long> errors = new TreeMap<>();
      after
          .errors()
          .forEach(
              (kind, n) -> {
                Long was = b.errors().get(kind);
                // A counter that went down was reset (a driver reload): its count since is new.
                long delta = was == null ? 0 : n >= was ? n - was : n;
                if (delta > 0) {
                  errors.put(kind, delta);
                }
              });
      Long bytes = moved(b, after);
      Change c = new Change(after.subject(), errors, bytes);
      (errors.isEmpty() ? quiet : withErrors).add(c);
    }
    List<Change> out = new ArrayList<>(withErrors);
    out.addAll(quiet);
    return out;
  }

  private static Long moved(Counters before, Counters after) {
    if (before.transmitBytes() == null
        || after.transmitBytes() == null
        || before.receiveBytes() == null
        || after.receiveBytes() == null) {
      return null;
    }
    long tx = after.transmitBytes() - before.transmitBytes();
    long rx = after.receiveBytes() - before.receiveBytes();
    return tx < 0 || rx < 0 ? null : tx + rx;
  }

  void print(PrintWriter out) {
    out.println("job " + record.job() + ": " + (running ? "running" : "ended"));
    out.println("  before: " + describe(record.start(), "no prolog check kept"));
    out.println(
        "  after:  "
            + (running
                ? (end == null
                    ? "running; the agent gave no reading now"
                    : "running; counters to the agent's reading now")
                : describe(end, "no epilog check kept")));
    List<Change> changes = changes();
    long errored = changes.stream().filter(c -> !c.errors().isEmpty()).count();
    if (record.start() != null && end != null) {
      out.println(
          "  link counters over the job: "
              + (errored == 0
                  ? "no errors on any of " + changes.size()
                  : errored + " of " + changes.size())
              + " links and ports"
              + (errored == 0 ? "" : " counted errors"));
      for (Change c : changes) {
        if (!c.errors().isEmpty()) {
          out.println(
              "    "
                  + c.subject()
                  + ": "
                  + c.errors().entrySet().stream()
                      .map(e -> e.getKey() + " +" + e.getValue())
                      .collect(Collectors.joining(", "))
                  + (c.bytes() == null ? "" : ", " + ByteSize.format(c.bytes()) + " moved"));
        }
      }
      long bytes =
          changes.stream()
              .map(Change::bytes)
              .filter(Objects::nonNull)
              .mapToLong(Long::longValue)
              .sum();
      if (changes.stream().anyMatch(c -> c.bytes() != null)) {
        out.println("    all links and ports moved " + ByteSize.format(bytes) + " in all");
      }
    }
    if (findings.isEmpty()) {
      out.println("  findings that appeared during the job and stand now: none");
    } else {
      out.println("  findings that appeared during the job and stand now:");
      for (FindingEntry f : findings) {
        out.println(
            "    "
                + f.state().toLowerCase(java.util.Locale.ROOT)
                + " "
                + f.subject()
                + ": "
                + f.code()
                + " "
                + f.evidence()
                + " (since "
                + f.firstSeen()
                + ")");
      }
    }
    out.flush();
  }

  private static String describe(JobMark mark, String none) {
    if (mark == null) {
      return none;
    }
    return Instant.ofEpochMilli((long) (mark.atEpochSeconds() * 1000))
        + " "
        + mark.level()
        + " check: "
        + mark.firstLine();
  }
}
