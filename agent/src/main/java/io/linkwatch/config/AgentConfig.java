package io.linkwatch.config;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
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
    PassiveConfig passive) {

  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(120);

  public AgentConfig {
    topologyCommand = List.copyOf(topologyCommand);
    workerJavaOptions = List.copyOf(workerJavaOptions);
    probes = Map.copyOf(probes);
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
        passive);
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
        passive);
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
        passive);
  }
}
