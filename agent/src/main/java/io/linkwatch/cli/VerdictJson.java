package io.linkwatch.cli;

import com.google.gson.annotations.JsonAdapter;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.TargetEntry;
import io.linkwatch.util.Json;
import io.linkwatch.verdict.Verdict;
import java.util.List;

/**
 * What {@code status --json} and {@code check --json} print: the verdict in the words of its first
 * line, in the status document's spelling ({@code docs/linkwatch.schema.json}).
 */
final class VerdictJson {
  /** 2: a check's targets spelled as the status document's, every field present. */
  static final int SCHEMA_VERSION = 2;

  private VerdictJson() {}

  /**
   * One finding, its state as the verdict's word ({@code FAIL}).
   *
   * @param detail the same text as {@code evidence}, under the name outputs had before it
   */
  record FindingOutput(
      String code, String state, String subject, String evidence, String detail, String action) {}

  /** {@code status --json}: the verdict of the agent's last results, and where it was asked. */
  record StatusOutput(
      int schemaVersion,
      String agent,
      String state,
      String firstLine,
      int exitCode,
      List<FindingOutput> findings,
      List<String> notes) {}

  /**
   * {@code check --json}: the verdict, how the check ran, and the targets and link readings it
   * judged.
   */
  record CheckOutput(
      int schemaVersion,
      String level,
      String state,
      String firstLine,
      int exitCode,
      List<FindingOutput> findings,
      List<String> notes,
      double durationSeconds,
      String coordination,
      List<TargetEntry> targets,
      @JsonAdapter(value = Json.OmittedWhenNull.class, nullSafe = false) PassiveSection passive) {}

  static List<FindingOutput> findings(Verdict v) {
    return v.findings().stream()
        .map(
            f ->
                new FindingOutput(
                    f.code(), f.state().name(), f.subject(), f.detail(), f.detail(), f.action()))
        .toList();
  }
}
