package io.linkwatch.config;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
import io.linkwatch.passive.PassiveConfig;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The agent's whole configuration, validated. Built only by {@link ConfigLoader}; every field has a
 * default, so an empty file is a valid config.
 *
 * @param budget the largest share of wall time probes may keep a device busy, over the last hour
 * @param busy when a device counts as busy with other work, and what probes do then
 * @param web TLS, auth and connection limits of the HTTP side
 * @param passive link counters read while jobs run
 * @param probeLock the host-wide lock the agent's probes and {@code linkwatch check} share so that
 *     they never measure at once ({@code coordination.lock_file}); null for none
 * @param expected the operator's expected figures ({@code expected}), judged before the shipped
 *     table
 * @param expectedPorts the operator's expected ports ({@code expected_ports}), judged before the
 *     shipped rows
 * @param inactiveLinks the operator's links inactive by design ({@code inactive_links}), matched
 *     before the shipped rows
 * @param findingActions the operator's actions ({@code finding_actions}), each replacing the
 *     shipped row of its code
 * @param enforceVerdicts whether the job-boundary kit acts on a verdict ({@code verdicts.enforce}):
 *     false is shadow mode, where the Slurm scripts and node-problem-detector say what they would
 *     have done (drain, set the condition) and do not do it
 * @param podResources where the kubelet is asked which pod holds a busy device
 * @param series the knobs that cut the series this host exposes ({@code series:})
 * @param peers the agents on other servers this one probes, and how hard ({@code peers:})
 */
public record AgentConfig(
    ListenAddress listen,
    Backend backend,
    HostPaths hostPaths,
    List<String> topologyCommand,
    List<String> workerJavaOptions,
    double budget,
    BusyPolicy busy,
    WebSettings web,
    Map<ProbeKind, ProbeConfig> probes,
    PassiveConfig passive,
    java.nio.file.Path probeLock,
    List<io.linkwatch.verdict.ExpectedFigure> expected,
    List<io.linkwatch.passive.ExpectedPorts> expectedPorts,
    List<io.linkwatch.verdict.InactiveLink> inactiveLinks,
    List<io.linkwatch.verdict.FindingAction> findingActions,
    boolean enforceVerdicts,
    PodResourcesSettings podResources,
    SeriesSettings series,
    io.linkwatch.peer.PeerConfig peers) {

  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(120);

  public AgentConfig {
    topologyCommand = List.copyOf(topologyCommand);
    workerJavaOptions = List.copyOf(workerJavaOptions);
    probes = Map.copyOf(probes);
    expected = List.copyOf(expected);
    expectedPorts = List.copyOf(expectedPorts);
    findingActions = List.copyOf(findingActions);
    inactiveLinks = List.copyOf(inactiveLinks);
  }

  /** The operator's port rows first, then the shipped ones: the first row that matches judges. */
  public List<io.linkwatch.passive.ExpectedPorts> expectedPortsTable() {
    List<io.linkwatch.passive.ExpectedPorts> all = new java.util.ArrayList<>(expectedPorts);
    all.addAll(io.linkwatch.passive.ExpectedPorts.SHIPPED);
    return List.copyOf(all);
  }

  /** The operator's figures first, then the shipped table: the first row that matches judges. */
  public List<io.linkwatch.verdict.ExpectedFigure> expectedFigures() {
    List<io.linkwatch.verdict.ExpectedFigure> all = new java.util.ArrayList<>(expected);
    all.addAll(ExpectedFigureTable.SHIPPED);
    return List.copyOf(all);
  }

  /** The operator's inactive links first, then the shipped ones: the first row that matches. */
  public List<io.linkwatch.verdict.InactiveLink> inactiveLinkTable() {
    List<io.linkwatch.verdict.InactiveLink> all = new java.util.ArrayList<>(inactiveLinks);
    all.addAll(ExpectedFigureTable.SHIPPED_INACTIVE);
    return List.copyOf(all);
  }

  /** The operator's actions first, then the shipped ones: the first row for a code says. */
  public io.linkwatch.verdict.FindingActions findingActionTable() {
    List<io.linkwatch.verdict.FindingAction> all = new java.util.ArrayList<>(findingActions);
    all.addAll(FindingActionTable.SHIPPED);
    return new io.linkwatch.verdict.FindingActions(all);
  }

  /** What this host is judged against, and what to do about each finding: the tables above. */
  public io.linkwatch.verdict.Expectations expectations() {
    return new io.linkwatch.verdict.Expectations(
        expectedFigures(), inactiveLinkTable(), findingActionTable());
  }

  public AgentConfig withListen(ListenAddress l) {
    return new AgentConfig(
        l,
        backend,
        hostPaths,
        topologyCommand,
        workerJavaOptions,
        budget,
        busy,
        web,
        probes,
        passive,
        probeLock,
        expected,
        expectedPorts,
        inactiveLinks,
        findingActions,
        enforceVerdicts,
        podResources,
        series,
        peers);
  }

  public AgentConfig withBackend(Backend b) {
    return new AgentConfig(
        listen,
        b,
        hostPaths,
        topologyCommand,
        workerJavaOptions,
        budget,
        busy,
        web,
        probes,
        passive,
        probeLock,
        expected,
        expectedPorts,
        inactiveLinks,
        findingActions,
        enforceVerdicts,
        podResources,
        series,
        peers);
  }

  public AgentConfig withWeb(WebSettings w) {
    return new AgentConfig(
        listen,
        backend,
        hostPaths,
        topologyCommand,
        workerJavaOptions,
        budget,
        busy,
        w,
        probes,
        passive,
        probeLock,
        expected,
        expectedPorts,
        inactiveLinks,
        findingActions,
        enforceVerdicts,
        podResources,
        series,
        peers);
  }
}
