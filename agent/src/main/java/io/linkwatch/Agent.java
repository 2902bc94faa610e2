package io.linkwatch;

import io.linkwatch.check.CheckRecordPoller;
import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ProbeConfig;
import io.linkwatch.history.SeriesHistory;
import io.linkwatch.http.HttpApi;
import io.linkwatch.kubelet.PodHolderLookup;
import io.linkwatch.kubelet.PodResourcesClient;
import io.linkwatch.metrics.AgentSelfMetrics;
import io.linkwatch.metrics.LinkwatchCollector;
import io.linkwatch.metrics.PassiveExposition;
import io.linkwatch.metrics.PeerCollector;
import io.linkwatch.metrics.ShadowCollector;
import io.linkwatch.passive.ActiveProbes;
import io.linkwatch.passive.PassiveConfig;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.PassiveWatcher;
import io.linkwatch.passive.PortExpectations;
import io.linkwatch.peer.EchoResponder;
import io.linkwatch.peer.Membership;
import io.linkwatch.peer.PeerProber;
import io.linkwatch.peer.PeerSnapshot;
import io.linkwatch.peer.collective.PeerRuns;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import io.linkwatch.schedule.DeviceBudget;
import io.linkwatch.schedule.ProbeExecutor;
import io.linkwatch.schedule.ProbeScheduler;
import io.linkwatch.state.AgentAddress;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.StatusDocuments;
import io.linkwatch.verdict.StandingFindings;
import io.linkwatch.verdict.Verdict;
import io.linkwatch.verdict.VerdictLog;
import io.linkwatch.verdict.VerdictWatch;
import io.linkwatch.worker.WorkerProcess;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running agent: schedules feed worker runs into the result store, and the HTTP side serves
 * what the store holds. Data flows one way: schedule, worker, store, {@code /metrics}.
 */
public final class Agent implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Agent.class);

  private final ProbeExecutor executor;
  private final ProbeScheduler scheduler;
  private final HttpApi http;
  private final PassiveWatcher passive;
  private final CheckRecordPoller checks;
  private final PodHolderLookup pods;
  private final VerdictWatch verdicts;
  private final java.nio.file.Path probeLock;
  private final PeerProber peers;
  private final EchoResponder echo;
  private final PeerRuns peerRuns;

  private Agent(
      ProbeExecutor executor,
      ProbeScheduler scheduler,
      HttpApi http,
      PassiveWatcher passive,
      CheckRecordPoller checks,
      PodHolderLookup pods,
      VerdictWatch verdicts,
      java.nio.file.Path probeLock,
      PeerProber peers,
      EchoResponder echo,
      PeerRuns peerRuns) {
    this.peerRuns = peerRuns;
    this.peers = peers;
    this.echo = echo;
    this.verdicts = verdicts;
    this.probeLock = probeLock;
    this.checks = checks;
    this.pods = pods;
    this.executor = executor;
    this.scheduler = scheduler;
    this.http = http;
    this.passive = passive;
  }

  /**
   * Starts serving at once and the first probe runs {@code firstDelayMillis} later (plus jitter).
   */
  public static Agent start(AgentConfig config, long firstDelayMillis) throws Exception {
    if (config.backend() == Backend.AUTO) {
      // Workers, build_info and logs need the backend auto stood for: DeviceRuntimes.checkLoadable.
      throw new IllegalArgumentException("the backend must be resolved before the agent starts");
    }
    Clock clock = Clock.systemUTC();
    ResultStore store = new ResultStore(clock, new SeriesHistory(config.web().historyStep()));
    List<ProbeConfig> enabled = new ArrayList<>();
    Map<String, Double> intervals = new LinkedHashMap<>();
    config.probes().values().stream()
        .filter(ProbeConfig::enabled)
        .sorted((a, b) -> a.kind().compareTo(b.kind()))
        .forEach(
            p -> {
              enabled.add(p);
              intervals.put(p.kind().id(), p.schedule().nominalInterval().toMillis() / 1e3);
            });
    PassiveConfig passiveConfig = config.passive();
    PassiveStore passiveStore = passiveConfig.enabled() ? new PassiveStore(clock) : null;
    if (passiveStore != null) {
      passiveStore.expectPorts(
          new PortExpectations(config.expectedPortsTable(), store::deviceNames));
    }
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(
        new LinkwatchCollector(
            store,
            ProbeKind::write,
            intervals,
            BuildInfo.version(),
            config.backend().id(),
            config.busy().alertAfter().toMillis() / 1e3,
            passiveStore == null
                ? null
                : new PassiveExposition(
                    passiveStore,
                    passiveConfig.interval().toMillis() / 1e3,
                    config.inactiveLinkTable(),
                    config.series().linkCounters()),
            config.series().probeHealth()));
    AgentSelfMetrics.register(registry);
    // Which pod holds a busy device: asked of the kubelet after a run found one, never waited for.
    PodHolderLookup pods =
        config
            .podResources()
            .socket()
            .map(
                socket ->
                    new PodHolderLookup(
                        new PodResourcesClient(socket, config.podResources().timeout()),
                        config.podResources().timeout(),
                        store::deviceKeys,
                        store::recordPodLookup,
                        clock))
            .orElse(null);
    if (pods != null) {
      store.onDevicesChecked(pods::checked);
    }
    ActiveProbes active = new ActiveProbes();
    ProbeExecutor executor =
        new ProbeExecutor(
            config,
            store,
            new WorkerProcess(config.workerJavaOptions()),
            new DeviceBudget(clock, config.budget()),
            active);
    PassiveWatcher passive =
        PassiveWatcher.of(
            config.passive(),
            config.backend(),
            config.workerJavaOptions(),
            config.hostPaths(),
            passiveStore,
            active);
    ProbeScheduler scheduler = new ProbeScheduler(executor, enabled, firstDelayMillis);
    // The peer prober needs the port the HTTP side bound (its echoes use the same number over UDP),
    // so it starts after it; until then the API says peers are not configured.
    AtomicReference<PeerProber> peerProber = new AtomicReference<>();
    Supplier<PeerSnapshot> peerSnapshot =
        () -> peerProber.get() == null ? null : peerProber.get().snapshot();
    registry.register(new PeerCollector(peerSnapshot));
    registry.register(new ShadowCollector(config.enforceVerdicts(), store::shadow));
    store.peers(peerSnapshot);
    // Two-host runs: lent to peers wherever peers are configured, started here where
    // peers.collective is.
    PeerRuns peerRuns =
        config.peers().enabled() ? new PeerRuns(config, executor, store, clock) : null;
    if (peerRuns != null) {
      registry.register(new io.linkwatch.metrics.PeerRunsCollector(peerRuns.results()));
    }
    HttpApi http =
        HttpApi.start(
            config.listen().host(),
            config.listen().port(),
            registry,
            store,
            passiveStore,
            scheduler::nextFireTimes,
            config.web(),
            config.expectations(),
            peerSnapshot,
            BuildInfo.version(),
            peerRuns == null ? null : peerRuns.desk());
    EchoResponder echo = null;
    if (config.peers().enabled()) {
      try {
        io.linkwatch.peer.collective.PeerRequests requests =
            io.linkwatch.peer.collective.PeerRuns.peerRequests(config.peers());
        PeerProber prober =
            PeerProber.start(
                config.peers(),
                Membership.of(config.peers()),
                http.port(),
                io.linkwatch.peer.NpuPinger.of(
                    config.peers(),
                    new io.linkwatch.passive.nic.HccnTool(
                        config.passive().hccnTool(),
                        config.passive().hccnToolTimeout(),
                        System.getenv()),
                    requests::identity,
                    java.time.Clock.systemUTC()));
        peerProber.set(prober);
        echo =
            EchoResponder.start(
                config.listen().host(), http.port(), prober::answered, prober::refused);
        peerRuns.start(peerSnapshot);
      } catch (Exception e) {
        if (peerProber.get() != null) {
          peerProber.get().close();
        }
        peerRuns.close();
        http.close();
        throw e;
      }
    }
    scheduler.start();
    if (passive != null) {
      passive.start();
    }
    // The agent's own verdict, judged as `linkwatch status` judges it: each change logged once,
    // and what stands kept for the status, the page and /metrics.
    VerdictLog journal = new VerdictLog();
    StandingFindings standing =
        new StandingFindings(config.findingActionTable(), store::runningJobs);
    VerdictWatch verdicts =
        new VerdictWatch(
            // Judged on the results alone, not on the findings standing from before: the
            // standing findings confirm a culprit a second round shows again, escalate what keeps
            // coming back, and let go when it no longer does.
            () ->
                Verdict.judge(
                    StatusDocuments.of(store, passiveStore, scheduler.nextFireTimes()),
                    config.expectations(),
                    Verdict.Source.RESULTS,
                    List.of()),
            // The stores and the prober only count up: their sum moves whenever one does.
            () ->
                store.version()
                    + (passiveStore == null ? 0 : passiveStore.version())
                    + (peerProber.get() == null ? 0 : peerProber.get().version()),
            verdict -> {
              List<io.linkwatch.status.FindingEntry> entries =
                  standing.observe(verdict, clock.instant());
              store.recordFindings(entries);
              // The journal says what status says: the standing findings' view of it.
              journal.observe(verdict.asStanding(entries, config.findingActionTable()));
            });
    verdicts.start();
    // The checks' verdicts (a prolog's, an epilog's), kept beside the probe lock.
    CheckRecordPoller checks =
        config.probeLock() == null ? null : new CheckRecordPoller(config.probeLock(), store);
    if (checks != null) {
      checks.start();
    }
    // Where status and check on this host find this agent, whatever --listen said.
    AgentAddress.write(
        config.probeLock(),
        AgentAddress.url(config.web().tls(), config.listen().host(), http.port()),
        config.backend(),
        System.getenv());
    log.info(
        "linkwatch {} started: backend={} probes={} listen={}:{}",
        BuildInfo.version(),
        config.backend().id(),
        intervals.keySet(),
        config.listen().host(),
        http.port());
    return new Agent(
        executor,
        scheduler,
        http,
        passive,
        checks,
        pods,
        verdicts,
        config.probeLock(),
        peerProber.get(),
        echo,
        peerRuns);
  }

  public int port() {
    return http.port();
  }

  /** Stops scheduling, kills a worker in progress, closes HTTP. */
  @Override
  public void close() {
    try {
      scheduler.close();
    } catch (Exception e) {
      log.warn("stopping the scheduler: {}", e.getMessage());
    }
    if (passive != null) {
      passive.close();
    }
    if (checks != null) {
      checks.close();
    }
    verdicts.close();
    if (peers != null) {
      peers.close();
    }
    if (echo != null) {
      echo.close();
    }
    AgentAddress.remove(probeLock);
    executor.stop();
    if (pods != null) {
      pods.close();
    }
    try {
      http.close();
    } catch (Exception e) {
      log.warn("closing HTTP: {}", e.getMessage());
    }
    // After HTTP: no lease can be granted once its desk is closed.
    if (peerRuns != null) {
      peerRuns.close();
    }
    log.info("linkwatch stopped");
  }
}
