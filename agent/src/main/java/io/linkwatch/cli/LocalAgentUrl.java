package io.linkwatch.cli;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.state.AgentAddress;

/**
 * Where the agent on this host answers: what the running agent recorded ({@link AgentAddress}),
 * else from its config: {@code https} when its web config serves TLS, 127.0.0.1 on its listen port.
 * {@code status} and {@code check} ask there unless {@code --url} says otherwise.
 */
final class LocalAgentUrl {
  static final String DESCRIPTION =
      "Default: where the agent running on this host recorded it listens (beside the probe"
          + " lock), else the config's listen address (127.0.0.1 for all interfaces), https when"
          + " its web config serves TLS.";

  private LocalAgentUrl() {}

  static String of(AgentConfig cfg) {
    return AgentAddress.running(cfg.probeLock())
        .orElseGet(
            () -> AgentAddress.url(cfg.web().tls(), cfg.listen().host(), cfg.listen().port()));
  }
}
