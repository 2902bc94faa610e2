package io.linkwatch.cli;

import io.linkwatch.check.AgentFailure;
import io.linkwatch.check.AgentStatusClient;
import io.linkwatch.check.CheckLevel;
import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.state.CheckRecord;
import io.linkwatch.state.JobRecord;
import io.linkwatch.status.FindingEntry;
import io.linkwatch.status.StatusCodec;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.verdict.Verdict;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch status}: the node's link verdict from the running agent, at once and without
 * device work, for health-check programs (Slurm's HealthCheckProgram, node-problem-detector,
 * Nagios). The first line is at most 80 characters: {@code OK|WARN|FAIL|UNKNOWN - <what>:
 * <reason>}.
 *
 * <p>Exit codes: {@code text} and {@code npd} (node-problem-detector's plugin contract) 0 OK or
 * WARN, 1 FAIL, 2 UNKNOWN; {@code nagios} 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "The node's link verdict from the running agent: instant, no device work.",
      "Exit: 0 OK, 1 FAIL, 2 UNKNOWN (nagios: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN)."
    })
final class StatusCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--url",
      paramLabel = "URL",
      converter = UrlConverter.class,
      description = "The agent's address. " + LocalAgentUrl.DESCRIPTION)
  String url;

  @Mixin VerdictFormatOption output;

  @Option(
      names = "--json",
      description =
          "Print the verdict, every finding and note as JSON (the exit code is the format's).")
  boolean json;

  @Mixin HttpConfigOption httpConfig;

  @Mixin KitHookOption hook;

  @Option(
      names = "--job",
      paramLabel = "ID",
      description =
          "Print what job ID's links did instead of the verdict: the checks before and after it,"
              + " every link's and port's counters over it, and the findings that appeared while"
              + " it ran (from the record its prolog's and epilog's check --job kept).")
  String job;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description = "How long to wait for the agent. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  static final class DurationConverter implements picocli.CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return io.linkwatch.util.Durations.parse(value);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** An http or https address with a host: anything else is a usage error, not an UNKNOWN. */
  static final class UrlConverter implements picocli.CommandLine.ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        URI uri = new URI(value.strip());
        if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
            && uri.getHost() != null) {
          return value.strip();
        }
      } catch (java.net.URISyntaxException e) {
        // reported below
      }
      throw new picocli.CommandLine.TypeConversionException(
          "'" + value + "' is not an agent address (use e.g. http://127.0.0.1:10187)");
    }
  }

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The agent's configuration, for the operator's expected figures (expected:). Default:"
              + " /etc/linkwatch/linkwatch.yaml when it exists, else the shipped table only.")
  java.nio.file.Path config;

  /**
   * With no agent to ask, the last checks this host ran (a prolog's, an epilog's) as notes: the
   * last saved state, for a person reading it; the verdict stays UNKNOWN.
   */
  private static Verdict withLastChecks(Verdict verdict, AgentConfig cfg) {
    List<String> notes = new java.util.ArrayList<>(verdict.notes());
    long now = System.currentTimeMillis();
    for (CheckRecord r : CheckRecord.read(cfg.probeLock(), CheckLevel.ids())) {
      long ago = Math.max(0, now / 1000 - (long) r.endedEpochSeconds());
      notes.add(
          "last check "
              + r.level()
              + " "
              + Verdict.ago(ago)
              + " ago: "
              + r.state()
              + " - "
              + r.summary());
    }
    return new Verdict(verdict.state(), verdict.findings(), verdict.summary(), notes);
  }

  /** {@code --job}: the job's link report; a job with no record is a usage error. */
  private int jobReport(AgentConfig cfg, AgentStatusClient agent) {
    if (!JobRecord.validId(job)) {
      throw new UsageException(
          "--job: '" + job + "' is not a job id (letters, digits and _ . + : / -, e.g. 1234)");
    }
    JobRecord record =
        JobRecord.read(cfg.probeLock(), job)
            .orElseThrow(
                () ->
                    new UsageException(
                        "status --job "
                            + job
                            + ": no record of that job beside "
                            + cfg.probeLock()
                            + " (the prolog's and epilog's checks keep one with --job; the"
                            + " shipped Slurm scripts pass it)"));
    StatusDocument doc = null;
    try {
      doc = agent.fetch();
    } catch (IOException | IllegalStateException e) {
      // The record alone still says what the checks before and after the job saw.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    boolean running = record.end() == null;
    JobRecord.JobMark end = record.end();
    if (running && doc != null) {
      end =
          new JobRecord.JobMark(
              System.currentTimeMillis() / 1e3,
              "agent",
              "",
              "the agent's reading now",
              JobRecord.counters(doc.passiveSection().orElse(null)));
    }
    List<FindingEntry> findings =
        doc == null
            ? List.of()
            : doc.findings().stream().filter(f -> f.jobs().contains(job)).toList();
    JobReport report = new JobReport(record, end, running, findings);
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(StatusCodec.encodePart(report.output()));
      out.flush();
    } else {
      report.print(out);
    }
    return 0;
  }

  @Override
  public Integer call() {
    AgentConfig cfg = ConfigLoader.loadOrDefaults(config);
    String agentUrl = url != null ? url : LocalAgentUrl.of(cfg);
    HttpClientConfig http = httpConfig.load(agentUrl);
    AgentStatusClient agent = new AgentStatusClient(agentUrl, timeout, http);
    String base = agent.base();
    if (job != null) {
      return jobReport(cfg, agent);
    }
    Verdict verdict;
    try {
      verdict = Verdict.judge(agent.fetch(), cfg.expectations());
    } catch (IOException | IllegalStateException e) {
      verdict = Verdict.unreachable(base, AgentFailure.reason(e, timeout, http));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      verdict = Verdict.unreachable(base, "interrupted");
    }
    if (verdict.findings().stream().anyMatch(f -> f.code().equals("LW-NO-AGENT"))) {
      verdict = withLastChecks(verdict, cfg);
    }
    KitHookOption.Answer answer = hook.answer(cfg, output.format);
    answer.count(cfg, verdict);
    Verdict shown = verdict;
    if (answer.note(verdict.state()).isPresent()) {
      List<String> notes = new java.util.ArrayList<>(verdict.notes());
      notes.add(answer.note(verdict.state()).get());
      shown = new Verdict(verdict.state(), verdict.findings(), verdict.summary(), notes);
    }
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(
          StatusCodec.encodePart(
              new VerdictJson.StatusOutput(
                  VerdictJson.SCHEMA_VERSION,
                  base,
                  shown.state().name(),
                  shown.firstLine(answer.word(shown.state())),
                  answer.exitCode(shown.state()),
                  VerdictJson.findings(shown),
                  shown.notes())));
    } else {
      output.format.print(shown, out, answer.word(shown.state()));
    }
    out.flush();
    return answer.exitCode(shown.state());
  }
}
