package io.linkwatch.testing;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads other programs' JSON as trees in tests: Prometheus's and Alertmanager's APIs, the agent's
 * status API and the CLI's output. The agent's own codec is {@code ProbeKind.JSON}.
 */
public final class JsonTrees {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonTrees() {}
}
