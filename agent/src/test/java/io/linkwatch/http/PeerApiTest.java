package io.linkwatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.ConfigLoader;
import io.linkwatch.peer.PeerSnapshot;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.PeerFixture;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** {@code /api/v1/peers} and {@code /api/v1/identity} over real HTTP on loopback. */
class PeerApiTest {
  private static HttpResponse<String> get(HttpApi http, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static HttpApi start(Supplier<PeerSnapshot> peers) throws Exception {
    return HttpApi.start(
        "127.0.0.1",
        0,
        new PrometheusRegistry(),
        new ResultStore(Clock.systemUTC()),
        null,
        Map::of,
        ConfigLoader.defaults().web(),
        io.linkwatch.verdict.Expectations.of(io.linkwatch.config.ExpectedFigureTable.SHIPPED),
        peers,
        "1.2.3");
  }

  @Test
  void theMembersAreServedAsPrometheusHttpSdWithMetaLabels() throws Exception {
    HttpApi http = start(PeerFixture::snapshot);
    try {
      HttpResponse<String> r = get(http, "/api/v1/peers");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
      JsonArray groups = new JsonArray(r.body());
      assertThat(groups.size()).isEqualTo(3);
      JsonObject first = groups.getJsonObject(0);
      assertThat(first.getJsonArray("targets").getString(0)).isEqualTo("node-01:10187");
      assertThat(first.getJsonObject("labels").getMap())
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("__meta_linkwatch_tor", "leaf-a", "__meta_linkwatch_rail", "r0"));
      assertThat(groups.getJsonObject(2).getJsonObject("labels").isEmpty()).isTrue();
      // What the agents read back as members: the same list.
      assertThat(io.linkwatch.peer.HttpSdMembershipAccess.parse(r.body()))
          .isEqualTo(PeerFixture.snapshot().members());

      JsonObject id = new JsonObject(get(http, "/api/v1/identity").body());
      assertThat(id.getString("member")).isEqualTo("node-01:10187");
      assertThat(id.getString("version")).isEqualTo("1.2.3");
      assertThat(id.getString("tor")).isEqualTo("leaf-a");
      assertThat(id.getString("rail")).isEqualTo("r0");
      assertThat(id.getString("hostname")).isNotBlank();
      assertThat(id.getJsonArray("nics")).isNotNull();
      // The NPU ports, as a peer's pinger reads them back.
      assertThat(id.getJsonArray("npu_ports").getJsonObject(1).getString("nic")).isEqualTo("npu1");
      assertThat(io.linkwatch.peer.PeerIdentitiesAccess.npuPorts(id.encode()))
          .containsExactly(Map.entry(0, "10.10.100.10"), Map.entry(1, "10.10.100.11"));
    } finally {
      http.close();
    }
  }

  @Test
  void withoutAPeersSourceBothSayWhy() throws Exception {
    HttpApi http = start(() -> null);
    try {
      for (String path : new String[] {"/api/v1/peers", "/api/v1/identity"}) {
        HttpResponse<String> r = get(http, path);
        assertThat(r.statusCode()).as(path).isEqualTo(404);
        assertThat(r.body())
            .isEqualTo(
                "peers are not configured here (peers.static, peers.http_sd, peers.slurm or peers.kubernetes)\n");
      }
    } finally {
      http.close();
    }
  }
}
