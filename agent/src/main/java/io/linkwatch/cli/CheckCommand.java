package io.linkwatch.cli;

import io.linkwatch.check.AgentFailure;
import io.linkwatch.check.AgentStatusClient;
import io.linkwatch.check.CheckLevel;
import io.linkwatch.check.LinkCheck;
import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.passive.ActiveProbes;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.PassiveWatcher;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.backends.ChildEnvironment;
import io.linkwatch.state.AgentAddress;
import io.linkwatch.state.CheckRecord;
import io.linkwatch.state.JobRecord;
import io.linkwatch.state.KitHook;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.StatusCodec;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.util.LogSetup;
import io.linkwatch.verdict.Verdict;
import io.linkwatch.worker.WorkerProcess;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch check}: measures the links now and gives a verdict, for a Slurm prolog ({@code
 * quick}) or epilog ({@code medium}) or by hand. Each probe runs in a worker process under what is
 * left of {@code --timeout}, after taking the host's probe lock, so the agent's own probes never
 * measure at the same time. See {@link LinkCheck} for what is judged and {@link VerdictFormat} for
 * the output and exit codes.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Measure the links now and give a verdict (quick: before a job; medium: after one).",
      "Exit: 0 OK, 1 FAIL, 2 UNKNOWN (nagios: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN)."
    })
final class CheckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--level",
      paramLabel = "LEVEL",
      defaultValue = "quick",
      converter = LevelConverter.class,
      description =
          "quick (topology, link state, 256MiB p2p of every pair, 1KiB allreduce; for a prolog) or"
              + " medium (also 256MiB and 1GiB p2p, both directions, host transfer from every NUMA"
              + " node, large allreduce; for an epilog). Default: ${DEFAULT-VALUE}.")
  CheckLevel level;

  @Option(
      names = "--devices",
      paramLabel = "LIST",
      split = ",",
      description = "Devices to check, e.g. 0,1 or 0-7. Default: all.")
  List<String> devices = new ArrayList<>();

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = StatusCommand.DurationConverter.class,
      description =
          "The most the whole check may take; what does not fit is UNKNOWN. Default: 50s for"
              + " quick, 170s for medium.")
  Duration timeout;

  @Option(names = "--json", description = "Print the verdict and every figure as JSON.")
  boolean json;

  @Option(
      names = "--job",
      paramLabel = "ID",
      description =
          "Keep this check's verdict and link counters as the start (--hook prolog) or the end"
              + " (--hook epilog) of job ID, beside the probe lock, for status --job ID.")
  String job;

  @Mixin VerdictFormatOption output;

  @Mixin HttpConfigOption httpConfig;

  @Mixin KitHookOption hook;

  @Option(
      names = "--force",
      description =
          "Measure devices that run other work too (their figures are then contended and may"
              + " FAIL). Without it a busy device makes the check UNKNOWN.")
  boolean force;

  @Option(
      names = "--backend",
      paramLabel = "BACKEND",
      converter = BackendConverter.class,
      description = "Device runtime. Default: the config's backend, else auto.")
  Backend backend;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The agent's configuration: backend, probe lock, expected figures, busy policy."
              + " Default: /etc/linkwatch/linkwatch.yaml when it exists.")
  Path config;

  @Option(
      names = "--url",
      paramLabel = "URL",
      converter = StatusCommand.UrlConverter.class,
      description =
          "The running agent, for its link readings and this host's last figures. None answering"
              + " is fine. "
              + LocalAgentUrl.DESCRIPTION)
  String url;

  static final class LevelConverter implements picocli.CommandLine.ITypeConverter<CheckLevel> {
    @Override
    public CheckLevel convert(String value) {
      try {
        return CheckLevel.parse(value);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** The devices of {@code --devices}: each item {@code 3} or {@code 0-7}. */
  static List<Integer> devices(List<String> items) {
    return items.stream().flatMap(i -> device(i).stream()).distinct().sorted().toList();
  }

  private static List<Integer> device(String value) {
    {
      String v = value.strip();
      try {
        int dash = v.indexOf('-', 1);
        if (dash < 0) {
          return List.of(nonNegative(Integer.parseInt(v)));
        }
        int from = nonNegative(Integer.parseInt(v.substring(0, dash).strip()));
        int to = nonNegative(Integer.parseInt(v.substring(dash + 1).strip()));
        if (to < from || to - from > 1023) {
          throw new NumberFormatException();
        }
        List<Integer> range = new ArrayList<>();
        for (int d = from; d <= to; d++) {
          range.add(d);
        }
        return range;
      } catch (NumberFormatException e) {
        throw new UsageException(
            "--devices: '" + value + "' is not a device or range (use e.g. 0,1 or 0-7)");
      }
    }
  }

  private static int nonNegative(int d) {
    if (d < 0) {
      throw new NumberFormatException();
    }
    return d;
  }

  @Override
  public Integer call() throws InterruptedException {
    LogSetup.warningsOnlyUnlessSet();
    if (job != null) {
      if (!JobRecord.validId(job)) {
        throw new UsageException(
            "--job: '" + job + "' is not a job id (letters, digits and _ . + : / -, e.g. 1234)");
      }
      if (hook.hook != KitHook.PROLOG && hook.hook != KitHook.EPILOG) {
        throw new UsageException(
            "--job needs --hook prolog or --hook epilog: which end of the job this check is");
      }
    }
    AgentConfig cfg = ConfigLoader.loadOrDefaults(config);
    if (backend != null) {
      cfg = cfg.withBackend(backend);
    }
    List<String> agentNotes = new ArrayList<>();
    cfg = asTheAgentRuns(cfg, agentNotes);
    List<Integer> chosen = devices(devices);
    Duration limit = timeout != null ? timeout : level.defaultTimeout();
    String agentUrl = url != null ? url : LocalAgentUrl.of(cfg);
    HttpClientConfig http = httpConfig.load(agentUrl);
    Optional<StatusDocument> agentStatus = agentStatus(agentUrl, http, agentNotes);
    AgentConfig fixed = cfg;
    LinkCheck check =
        new LinkCheck(
            cfg,
            new WorkerProcess(cfg.workerJavaOptions()),
            agentStatus,
            deadline -> ownLinkReads(fixed));
    LinkCheck.Report report;
    try {
      report = check.run(level, chosen, limit, force);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Verdict verdict = report.verdict();
    List<String> notes = new ArrayList<>(verdict.notes());
    notes.addAll(agentNotes);
    CheckRecord.write(cfg.probeLock(), report.record());
    if (job != null) {
      JobRecord.mark(
          cfg.probeLock(),
          job,
          hook.hook == KitHook.PROLOG,
          new JobRecord.JobMark(
              System.currentTimeMillis() / 1e3,
              level.id(),
              verdict.state().name(),
              verdict.firstLine(verdict.state().name()),
              JobRecord.counters(report.document().passive())));
    }
    KitHookOption.Answer answer = hook.answer(cfg, output.format);
    answer.count(cfg, verdict);
    answer.note(verdict.state()).ifPresent(notes::add);
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(json(report, notes, answer));
    } else {
      output.format.print(
          new Verdict(verdict.state(), verdict.findings(), verdict.summary(), notes),
          out,
          answer.word(verdict.state()));
      if (output.format == VerdictFormat.TEXT) {
        out.printf(
            java.util.Locale.ROOT,
            "  checked (%s) in %.1f s; probe lock: %s%n",
            level.id(),
            report.seconds(),
            report.coordination());
      }
    }
    out.flush();
    return answer.exitCode(verdict.state());
  }

  /**
   * A check beside a running agent measures what the agent measures: with no backend of its own
   * (none given, none in the file) it takes the agent's, and on the agent's simulated backend its
   * workers get the sim settings the agent runs with (profile, fault control file), where its own
   * environment has none. Otherwise {@code check} on a sim demo finds no runtime, or simulates
   * another host than the one whose figures and faults the agent reports.
   */
  private static AgentConfig asTheAgentRuns(AgentConfig cfg, List<String> notes) {
    Optional<AgentAddress.Running> agent = AgentAddress.runningAgent(cfg.probeLock());
    if (agent.isEmpty() || agent.get().backend().isEmpty()) {
      return cfg;
    }
    Backend theirs = agent.get().backend().get();
    AgentConfig out = cfg;
    if (cfg.backend() == Backend.AUTO && theirs != Backend.AUTO) {
      out = cfg.withBackend(theirs);
      notes.add(
          "backend "
              + theirs.id()
              + ", as the agent on this host runs (pid "
              + agent.get().pid()
              + "; --backend chooses another)");
    }
    if (out.backend() == theirs && theirs.simulated()) {
      Map<String, String> adopted = new TreeMap<>();
      agent
          .get()
          .simEnvironment()
          .forEach(
              (k, v) -> {
                if (System.getenv(k) == null) {
                  adopted.put(k, v);
                }
              });
      ChildEnvironment.adopt(adopted);
      if (!adopted.isEmpty()) {
        notes.add(
            "the sim as the agent on this host runs it: "
                + adopted.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(java.util.stream.Collectors.joining(" ")));
      }
    }
    return out;
  }

  /**
   * The agent's status, when one answers within 2 s; no agent is a normal case, said in a note with
   * the reason (an agent that wants a login is not "no agent").
   */
  private static Optional<StatusDocument> agentStatus(
      String agentUrl, HttpClientConfig http, List<String> notes) {
    Duration limit = Duration.ofSeconds(2);
    try {
      return Optional.of(new AgentStatusClient(agentUrl, limit, http).fetch());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (Exception e) {
      notes.add(
          "no answer from the agent at "
              + agentUrl
              + " ("
              + AgentFailure.reason(e, limit, http)
              + "): judged without this host's earlier figures");
      return Optional.empty();
    }
  }

  /** One read round of the link state in a watcher process of our own, when no agent gave it. */
  private static Optional<PassiveSection> ownLinkReads(AgentConfig cfg) {
    PassiveStore store = new PassiveStore(Clock.systemUTC());
    PassiveWatcher watcher =
        PassiveWatcher.of(
            cfg.passive(),
            cfg.backend(),
            cfg.workerJavaOptions(),
            cfg.hostPaths(),
            store,
            new ActiveProbes());
    if (watcher == null) {
      return Optional.empty();
    }
    try (watcher) {
      watcher.round();
    }
    return Optional.of(PassiveSection.of(store));
  }

  private String json(LinkCheck.Report report, List<String> notes, KitHookOption.Answer answer) {
    Verdict v = report.verdict();
    return StatusCodec.encodePart(
        new VerdictJson.CheckOutput(
            VerdictJson.SCHEMA_VERSION,
            report.level().id(),
            v.state().name(),
            v.firstLine(answer.word(v.state())),
            answer.exitCode(v.state()),
            VerdictJson.findings(v),
            notes,
            report.seconds(),
            report.coordination(),
            report.document().targets(),
            report.document().passive()));
  }
}
