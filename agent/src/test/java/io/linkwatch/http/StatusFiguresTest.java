package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.check.AgentStatusClient;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.state.ResultStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each target's last figures in {@code /api/v1/status}, even a failed (NaN) one, in the one JSON
 * style of {@code probe --json}: snake_case fields under a {@code schema_version}.
 */
class StatusFiguresTest {
  @Test
  void figuresAreGivenAsTheProbeWritesThemAndANanOneDoesNotFailTheStatus() throws Exception {
    P2pBandwidth nan = new P2pBandwidth(1, 0, "SIO", 1 << 20, Double.NaN, Double.NaN);
    // The failure the status guards against is real: JSON has no NaN.
    assertThatThrownBy(() -> new JsonObject(ProbeKind.USER_JSON.write(nan)))
        .isInstanceOf(DecodeException.class);

    ResultStore store = new ResultStore(Clock.systemUTC());
    store.record(
        ProbeRun.of(
            "p2p",
            List.of(
                TargetResult.success(
                    "0->1", 0.1, List.of(new P2pBandwidth(0, 1, "SIO", 1 << 20, 4.8e9, 2.2e-4))),
                TargetResult.success("1->0", 0.1, List.of(nan)))));
    HttpApi http =
        HttpApi.start(
            "127.0.0.1",
            0,
            new PrometheusRegistry(),
            store,
            null,
            Map::of,
            ConfigLoader.defaults().web());
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + http.port() + "/api/v1/status"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      JsonObject status = new JsonObject(r.body());
      JsonObject ok = status.getJsonArray("targets").getJsonObject(0);
      assertThat(ok.getString("target")).isEqualTo("0->1");
      JsonObject figure = ok.getJsonArray("measurements").getJsonObject(0);
      assertThat(figure.getString("type")).isEqualTo("P2pBandwidth");
      assertThat(figure.getDouble("bytes_per_second")).isEqualTo(4.8e9);
      assertThat(figure.getLong("size_bytes")).isEqualTo(1L << 20);
      assertThat(status.getInteger("schema_version"))
          .isEqualTo(io.linkwatch.status.StatusDocument.SCHEMA_VERSION);
      assertThat(keys(status)).isNotEmpty().allMatch(k -> k.matches("[a-z0-9_]+"), "snake_case");
      // linkwatch status and check read it back.
      assertThat(
              new AgentStatusClient("http://127.0.0.1:" + http.port(), Duration.ofSeconds(5))
                  .fetch()
                  .targets())
          .hasSize(2);
      JsonObject failed =
          status
              .getJsonArray("targets")
              .getJsonObject(1)
              .getJsonArray("measurements")
              .getJsonObject(0);
      assertThat(failed.getString("type")).isEqualTo("P2pBandwidth");
      assertThat(failed.getString("summary")).contains("1->0");
      assertThat(status.getValue("passive")).isNull();
    } finally {
      http.close();
    }
  }

  /** Every field name in a document, at any depth. */
  private static List<String> keys(Object json) {
    List<String> keys = new ArrayList<>();
    if (json instanceof JsonObject o) {
      for (String k : o.fieldNames()) {
        keys.add(k);
        keys.addAll(keys(o.getValue(k)));
      }
    } else if (json instanceof JsonArray a) {
      a.forEach(v -> keys.addAll(keys(v)));
    }
    return keys;
  }
}
