package io.linkwatch.check;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.config.AgentConfig;
import io.linkwatch.host.ProbeLock;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.TextSettings;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import io.linkwatch.state.CheckRecord;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import io.linkwatch.util.Durations;
import io.linkwatch.util.Gbps;
import io.linkwatch.verdict.Verdict;
import io.linkwatch.verdict.Verdict.Finding;
import io.linkwatch.verdict.Verdict.State;
import io.linkwatch.worker.ProbeRunner;
import io.linkwatch.worker.WorkerRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One {@code linkwatch check}: takes the host's probe lock (so the agent's probes never measure at
 * the same time), reads the link state, runs the level's probes one worker process each under what
 * is left of the timeout, and judges the figures against the expected table and the agent's own
 * last figures for the same pairs.
 *
 * <p>What makes a check UNKNOWN rather than FAIL: no device library ({@code LW-NO-RUNTIME}), the
 * lock held by a probe run for half the timeout ({@code LW-LOCKED}), a busy device ({@code
 * LW-DEVICE-BUSY}), a hung call or no time left ({@code LW-TIMEOUT}). A figure under its floor, a
 * failed probe and a link down or downtrained are FAIL.
 */
public final class LinkCheck {
  /** Below this much time left, a probe run is not started: it could not finish. */
  static final Duration MIN_STEP = Duration.ofSeconds(3);

  /** A check figure under this share of the agent's last figure for the same pair warns. */
  static final double HOST_BASELINE_SHARE = 0.8;

  /** Reads the link state (the passive counters) once, within a deadline. */
  public interface LinkStateReader {
    Optional<PassiveSection> read(Duration deadline) throws InterruptedException;
  }

  /**
   * A check's outcome.
   *
   * @param document the check's figures as a status document (its targets and the link readings),
   *     as judged
   * @param coordination how the check kept clear of the agent's probes, e.g. {@code held
   *     /run/linkwatch/probes.lock}
   */
  public record Report(
      CheckLevel level,
      Verdict verdict,
      StatusDocument document,
      List<ProbeRun> runs,
      double seconds,
      String coordination) {
    /** What is kept of this check beside the probe lock, with its worst finding. */
    public CheckRecord record() {
      Optional<Verdict.Finding> worst =
          verdict.findings().stream().filter(f -> f.state() == verdict.state()).findFirst();
      return new CheckRecord(
          level.id(),
          verdict.state().name(),
          worst.map(Verdict.Finding::code).orElse(""),
          worst.map(Verdict.Finding::subject).orElse(""),
          verdict.summary(),
          System.currentTimeMillis() / 1e3,
          seconds);
    }
  }

  private final AgentConfig config;
  private final ProbeRunner runner;
  private final Optional<StatusDocument> agentStatus;
  private final LinkStateReader ownReads;
  private final Function<Backend, Backend> loadable;

  /**
   * @param agentStatus the running agent's status, when one answered: its passive readings are used
   *     instead of reading again, and its figures are this host's baseline
   * @param ownReads reads the link state when no agent gave it
   */
  public LinkCheck(
      AgentConfig config,
      ProbeRunner runner,
      Optional<StatusDocument> agentStatus,
      LinkStateReader ownReads) {
    this(config, runner, agentStatus, ownReads, DeviceRuntimes::checkLoadable);
  }

  LinkCheck(
      AgentConfig config,
      ProbeRunner runner,
      Optional<StatusDocument> agentStatus,
      LinkStateReader ownReads,
      Function<Backend, Backend> loadable) {
    this.config = config;
    this.runner = runner;
    this.agentStatus = agentStatus;
    this.ownReads = ownReads;
    this.loadable = loadable;
  }

  /**
   * Runs the check.
   *
   * @param devices the devices to check; empty for all
   * @param force measure devices that run other work too
   * @throws IllegalArgumentException when {@code devices} names a device this host does not have
   */
  public Report run(CheckLevel level, List<Integer> devices, Duration timeout, boolean force)
      throws InterruptedException {
    long started = System.nanoTime();
    long end = started + timeout.toNanos();
    List<Finding> more = new ArrayList<>();
    List<ProbeRun> runs = new ArrayList<>();
    Backend backend;
    try {
      backend = loadable.apply(config.backend());
    } catch (RuntimeException | LinkageError e) {
      more.add(
          new Finding(
              "LW-NO-RUNTIME", State.UNKNOWN, "backend " + config.backend().id(), e.getMessage()));
      return report(level, runs, Optional.empty(), more, started, "none: nothing measured");
    }
    ProbeLock lock = new ProbeLock(config.probeLock());
    String holder = "linkwatch check " + level.id();
    Optional<ProbeLock.Held> held = lock.acquire(holder, Duration.ZERO);
    String waited = "";
    if (held.isEmpty()) {
      // The agent's probe run in progress: say what was waited for, and how long.
      String other = lock.holder();
      long waitStarted = System.nanoTime();
      held = lock.acquire(holder, timeout.dividedBy(2));
      waited =
          String.format(
              Locale.ROOT,
              " after waiting %.1f s for %s",
              (System.nanoTime() - waitStarted) / 1e9,
              other.isEmpty() ? "another linkwatch process" : other);
    }
    if (held.isEmpty()) {
      more.add(
          new Finding(
              "LW-LOCKED",
              State.UNKNOWN,
              "probe lock",
              "held by "
                  + (lock.holder().isEmpty() ? "another linkwatch process" : lock.holder())
                  + " for "
                  + Durations.format(timeout.dividedBy(2))));
      return report(level, runs, Optional.empty(), more, started, "waited for the probe lock");
    }
    try (ProbeLock.Held h = held.get()) {
      String coordination =
          h.coordinated()
              ? "held " + lock.path().orElseThrow() + waited
              : "uncoordinated: "
                  + h.uncoordinatedBecause()
                  + (h.remedy().isEmpty() ? "" : " (" + h.remedy() + ")");
      Optional<PassiveSection> passive = agentStatus.flatMap(StatusDocument::passiveSection);
      if (passive.isEmpty()) {
        Duration read = min(config.passive().deadline(), left(end));
        passive = ownReads.read(read);
      }
      List<CheckLevel.Step> steps = level.steps(devices);
      for (int i = 0; i < steps.size(); i++) {
        CheckLevel.Step step = steps.get(i);
        Duration left = left(end);
        if (left.compareTo(MIN_STEP) < 0) {
          more.add(
              new Finding(
                  "LW-TIMEOUT",
                  State.UNKNOWN,
                  "check " + level.id(),
                  "no time left for "
                      + String.join(
                          ", ",
                          steps.subList(i, steps.size()).stream().map(s -> s.kind().id()).toList())
                      + " within "
                      + Durations.format(timeout)));
          break;
        }
        ProbeRun run =
            runner.run(
                new WorkerRequest(
                    step.kind().id(),
                    settings(step),
                    backend,
                    config.hostPaths(),
                    config.topologyCommand(),
                    force ? config.busy().withPolicy(BusyPolicy.Mode.IGNORE) : config.busy(),
                    List.of(),
                    Map.of()),
                left,
                List.of());
        runs.add(run);
        if (step.kind().takesInventory()) {
          requireDevices(devices, run);
        }
      }
      return report(
          level, runs, passive.map(p -> p.onlyDevices(devices)), more, started, coordination);
    }
  }

  private Report report(
      CheckLevel level,
      List<ProbeRun> runs,
      Optional<PassiveSection> passive,
      List<Finding> more,
      long started,
      String coordination) {
    // The probes between servers are the agent's alone (a check has no peers of its own): the
    // running agent's evidence, so a check on a host whose own network fails says so too.
    StatusDocument document =
        document(runs, passive)
            .withPeers(agentStatus.flatMap(StatusDocument::peerSection).orElse(null));
    List<Finding> all = new ArrayList<>(more);
    all.addAll(belowHostBaseline(agentStatus, runs));
    Verdict verdict = Verdict.judge(document, config.expectations(), Verdict.Source.CHECK, all);
    return new Report(
        level, verdict, document, runs, (System.nanoTime() - started) / 1e9, coordination);
  }

  /** The device list checked against the devices the topology found. */
  private static void requireDevices(List<Integer> devices, ProbeRun topology) {
    TreeSet<Integer> present = new TreeSet<>();
    for (TargetResult t : topology.targets()) {
      for (Measurement m : t.measurements()) {
        if (m instanceof DeviceInfo d) {
          present.add(d.device());
        }
      }
    }
    if (present.isEmpty()) {
      return; // the topology failed: its finding says so, and the probes will too
    }
    List<Integer> missing = devices.stream().filter(d -> !present.contains(d)).toList();
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          "--devices: no device "
              + missing.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("")
              + " on this host (it has "
              + present.size()
              + ": "
              + present.first()
              + "-"
              + present.last()
              + ")");
    }
  }

  /** A step's settings, read by the probe's own reader as a config file's would be. */
  static ProbeSettings settings(CheckLevel.Step step) {
    TextSettings source = new TextSettings(step.settings(), key -> key);
    ProbeSettings settings = step.kind().descriptor().read(source);
    if (!source.problems().isEmpty()) {
      throw new IllegalStateException(
          "check level settings for " + step.kind().id() + ": " + source.problems());
    }
    return settings;
  }

  /** The check's runs as a status document, for {@link Verdict#judge}. */
  static StatusDocument document(List<ProbeRun> runs, Optional<PassiveSection> passive) {
    List<TargetEntry> targets = new ArrayList<>();
    for (ProbeRun run : runs) {
      for (TargetResult t : run.targets()) {
        targets.add(TargetEntry.of(run.probe(), t));
      }
    }
    return StatusDocument.ofCheck(targets, passive.orElse(null));
  }

  /**
   * WARN for a pair that measures well under what this host's agent last measured for the same pair
   * and size: a host's own history, where the product has no expected figures.
   */
  static List<Finding> belowHostBaseline(
      Optional<StatusDocument> agentStatus, List<ProbeRun> runs) {
    if (agentStatus.isEmpty()) {
      return List.of();
    }
    Map<String, Double> agent = new HashMap<>();
    for (TargetEntry.Figure f : agentStatus.get().figures()) {
      pairFigure(f.measurement())
          .ifPresent(j -> agent.put(subject(f.probe(), f.target(), j), j.value()));
    }
    List<Finding> findings = new ArrayList<>();
    for (ProbeRun run : runs) {
      for (TargetResult t : run.targets()) {
        for (Measurement m : t.measurements()) {
          Optional<Judged.Figure> figure = pairFigure(m);
          if (figure.isEmpty()) {
            continue;
          }
          String subject = subject(run.probe(), t.target(), figure.get());
          double now = figure.get().value();
          Double before = agent.get(subject);
          if (before != null && now < HOST_BASELINE_SHARE * before) {
            findings.add(
                new Finding(
                    "LW-BELOW-HOST",
                    State.WARN,
                    subject,
                    String.format(
                        Locale.ROOT,
                        "%s, this host's agent measured %s",
                        Gbps.withUnit(now),
                        Gbps.withUnit(before))));
          }
        }
      }
    }
    return findings;
  }

  /** A device pair's measured copy figure: what a host's own baseline is kept for. */
  private static Optional<Judged.Figure> pairFigure(Measurement m) {
    return m instanceof Judged j && j.judged().pair() && !Double.isNaN(j.judged().value())
        ? Optional.of(j.judged())
        : Optional.empty();
  }

  /** E.g. {@code p2p 0->1 SIO 256MiB}: the pair, link and size, as a finding names them. */
  private static String subject(String probe, String target, Judged.Figure figure) {
    return probe + " " + target + " " + figure.detail();
  }

  private static Duration left(long endNanos) {
    return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
