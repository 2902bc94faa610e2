package io.linkwatch.config;

/**
 * A configuration that cannot be used. The message names the key path and the reason, e.g. {@code
 * /etc/linkwatch/linkwatch.yaml: probes.p2p.iterations: must be at least 1, not 0}.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
