package io.linkwatch.cli;

import io.linkwatch.config.AgentConfig;

/**
 * Where the agent on this host answers, from its own config: {@code https} when its web config
 * serves TLS, 127.0.0.1 on its listen port. {@code status} and {@code check} ask there unless
 * {@code --url} says otherwise.
 */
final class LocalAgentUrl {
  static final String DESCRIPTION =
      "Default: 127.0.0.1 on the config's listen port, https when its web config serves TLS.";

  private LocalAgentUrl() {}

  static String of(AgentConfig cfg) {
    return (cfg.web().tls() ? "https" : "http") + "://127.0.0.1:" + cfg.listen().port();
  }
}
