package io.linkwatch.peer.collective;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.config.HttpClientConfigLoader;
import io.linkwatch.peer.PeerConfig;
import io.linkwatch.peer.PeerSnapshot;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.schedule.ProbeExecutor;
import io.linkwatch.state.ResultStore;
import io.linkwatch.worker.WorkerProcess;
import io.linkwatch.worker.WorkerRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The two-host runs of one agent, both ends: the desk that lends this host's devices to peers, the
 * prober that starts this host's own runs ({@code peers.collective}), their results, and the worker
 * both run in (a process per run, as every probe's). Both hold the agent's lane of device work, so
 * at most one runs at a time, beside no probe of this host.
 */
public final class PeerRuns implements AutoCloseable {
  private final AgentConfig config;
  private final ResultStore store;
  private final Clock clock;

  /** This host's side of its own runs, and its side of the runs it lends its devices to. */
  private final WorkerProcess proberWorker;

  private final WorkerProcess lentWorker;
  private final ExecutorService started;
  private final PairResults results;
  private final LeaseDesk desk;
  private final Path rootInfoDir;
  private final ProbeExecutor executor;
  private PairProber prober;

  public PeerRuns(AgentConfig config, ProbeExecutor executor, ResultStore store, Clock clock) {
    this.config = config;
    this.store = store;
    this.clock = clock;
    this.executor = executor;
    // One each, so that stopping one side's worker can never kill the other's.
    this.proberWorker = new WorkerProcess(config.workerJavaOptions());
    this.lentWorker = new WorkerProcess(config.workerJavaOptions());
    this.started =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "peer-collective-worker");
              t.setDaemon(true);
              return t;
            });
    this.results = new PairResults(clock);
    // The status document shows each pair's last run from here.
    store.pairs(results::entries);
    this.desk =
        new LeaseDesk(
            config.peers().collective(),
            executor::holdDevices,
            (probe, settings, deadline) -> run(lentWorker, probe, settings, deadline),
            this::recentlyBusy,
            results,
            clock);
    try {
      // Owner-only: the blob lets whoever holds it join the group as a rank.
      this.rootInfoDir = Files.createTempDirectory("linkwatch-peer-");
    } catch (IOException e) {
      throw new UncheckedIOException("creating a directory for peer root info", e);
    }
  }

  public LeaseDesk desk() {
    return desk;
  }

  public PairResults results() {
    return results;
  }

  /** Starts this host's own runs, with the members {@code peers} gives, if configured. */
  public void start(Supplier<PeerSnapshot> peers) {
    config
        .peers()
        .collective()
        .ifPresent(
            c -> {
              prober =
                  new PairProber(
                      c,
                      peers,
                      executor::holdDevices,
                      new PairProber.RootWorker() {
                        @Override
                        public CompletableFuture<ProbeRun> start(
                            String probe, ProbeSettings settings, Duration deadline) {
                          return CompletableFuture.supplyAsync(
                              () -> run(proberWorker, probe, settings, deadline), started);
                        }

                        @Override
                        public void stop() {
                          proberWorker.stop();
                        }
                      },
                      results,
                      rootInfoDir,
                      clock,
                      requests(c));
              prober.start();
            });
  }

  /**
   * How the leases are asked for: the collective's own client config, else the one for every
   * request to the peers ({@code peers.http_config_file}).
   */
  private PeerRequests requests(PeerConfig.Collective c) {
    if (c.httpConfigFile().isPresent()) {
      return new PeerRequests(
          HttpClientConfigLoader.loadForPeers(c.httpConfigFile().get()),
          "peers.collective.http_config_file");
    }
    return peerRequests(config.peers());
  }

  /** How this agent asks its peers ({@code peers.http_config_file}; none: plain HTTP). */
  public static PeerRequests peerRequests(PeerConfig peers) {
    return new PeerRequests(
        peers
            .httpConfigFile()
            .map(HttpClientConfigLoader::loadForPeers)
            .orElse(HttpClientConfig.NONE),
        "peers.http_config_file");
  }

  private ProbeRun run(
      WorkerProcess worker, String probe, ProbeSettings settings, Duration deadline) {
    // This host's devices, as the worker names its one target (the point to point's: the first).
    List<Integer> devices =
        config.peers().collective().map(PeerConfig.Collective::devices).orElse(List.of(0));
    String target =
        (ProbeKind.PEER_P2P.equals(probe) ? devices.subList(0, 1) : devices)
            .stream().map(String::valueOf).collect(Collectors.joining(","));
    return worker.run(
        new WorkerRequest(
            probe,
            settings,
            config.backend(),
            config.hostPaths(),
            config.topologyCommand(),
            config.busy(),
            List.of(),
            store.memoryBaselines()),
        deadline,
        List.of(target));
  }

  /** A device of {@code devices} this host's own probes found busy within the last retry period. */
  private Optional<String> recentlyBusy(List<Integer> devices) {
    long since = clock.millis() - config.busy().retry().toMillis();
    return store.busySeenByOthers(ProbeKind.PEER_ALLREDUCE, since).entrySet().stream()
        .filter(e -> devices.contains(e.getKey()))
        .map(e -> e.getValue().busyLine())
        .findFirst();
  }

  @Override
  public void close() {
    if (prober != null) {
      prober.close();
    }
    desk.close();
    proberWorker.stop();
    lentWorker.stop();
    started.shutdownNow();
    try (Stream<Path> files = Files.list(rootInfoDir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(rootInfoDir);
    } catch (IOException e) {
      // A temporary directory: the system's cleaning takes it.
    }
  }
}
