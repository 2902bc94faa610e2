package io.linkwatch.testing;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The part of Prometheus' HTTP API a live test reads: instant queries and the alerts held by the
 * rules. Prometheus answers both; in a large fleet the store answers queries and vmalert alerts.
 */
public interface QueryApi {
  /** The {@code data.result} array of an instant query. */
  JsonNode query(String promql) throws Exception;

  /** Every alert held now, pending or firing ({@code data.alerts} of {@code /api/v1/alerts}). */
  JsonNode alerts() throws Exception;
}
