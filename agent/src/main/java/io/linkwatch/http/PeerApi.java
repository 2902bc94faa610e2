package io.linkwatch.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.linkwatch.peer.HttpSdLabels;
import io.linkwatch.peer.Nics;
import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.peer.PeerSnapshot;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * The peers' side of the API, behind the same TLS and auth as the rest:
 *
 * <ul>
 *   <li>{@code /api/v1/peers}: the members this agent probes, as Prometheus HTTP service-discovery
 *       JSON ({@code http_sd_configs} reads it, and so does another agent's {@code peers.http_sd}),
 *       one target group per member so that its switch and rail stay its own ({@code
 *       __meta_linkwatch_tor}, {@code __meta_linkwatch_rail});
 *   <li>{@code /api/v1/identity}: who this agent is to its peers: the member it is, its host name,
 *       its interfaces and their addresses, its NPU ports and theirs, its switch and rail.
 * </ul>
 *
 * Both answer 404 with a line saying why while no membership source is configured.
 */
final class PeerApi {
  private PeerApi() {}

  static void routes(Router router, Supplier<PeerSnapshot> peers, String version) {
    // Off the event loop that serves /metrics: a snapshot of thousands of members is work.
    router
        .get("/api/v1/peers")
        .blockingHandler(ctx -> json(ctx, peers, PeerApi::serviceDiscovery), false);
    router
        .get("/api/v1/identity")
        .blockingHandler(ctx -> json(ctx, peers, s -> identity(s, version)), false);
  }

  private static void json(
      RoutingContext ctx,
      Supplier<PeerSnapshot> peers,
      java.util.function.Function<PeerSnapshot, Object> body) {
    PeerSnapshot s = peers == null ? null : peers.get();
    if (s == null) {
      ctx.response()
          .setStatusCode(404)
          .putHeader("Content-Type", "text/plain")
          .end(
              "peers are not configured here (peers.static, peers.http_sd, peers.slurm or peers.kubernetes)\n");
      return;
    }
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-store")
        .end(body.apply(s).toString());
  }

  static JsonArray serviceDiscovery(PeerSnapshot s) {
    JsonArray groups = new JsonArray();
    for (Member m : s.members()) {
      JsonObject g = new JsonObject();
      JsonArray targets = new JsonArray();
      targets.add(m.host());
      g.add("targets", targets);
      JsonObject labels = new JsonObject();
      // Meta labels: Prometheus offers them to relabeling and drops them after, so they never
      // collide with the `tor` of the peer series; an agent reading this list takes them too.
      if (m.tor() != null) {
        labels.addProperty(HttpSdLabels.TOR, m.tor());
      }
      if (m.rail() != null) {
        labels.addProperty(HttpSdLabels.RAIL, m.rail());
      }
      g.add("labels", labels);
      groups.add(g);
    }
    return groups;
  }

  static JsonObject identity(PeerSnapshot s, String version) {
    JsonObject id = new JsonObject();
    Member self = s.self();
    id.addProperty("member", self == null ? null : self.host());
    id.addProperty("hostname", Nics.hostname());
    id.addProperty("version", version);
    if (self != null && self.tor() != null) {
      id.addProperty("tor", self.tor());
    }
    if (self != null && self.rail() != null) {
      id.addProperty("rail", self.rail());
    }
    JsonArray nics = new JsonArray();
    for (Nics.Nic n : Nics.up()) {
      JsonObject o = new JsonObject();
      o.addProperty("name", n.name());
      JsonArray addresses = new JsonArray();
      n.addresses().forEach(addresses::add);
      o.add("addresses", addresses);
      nics.add(o);
    }
    id.add("nics", nics);
    // The NPUs' own ports, which no host interface lists: peers ping them port to port.
    JsonArray npuPorts = new JsonArray();
    s.npu()
        .ports()
        .forEach(
            (device, address) -> {
              JsonObject o = new JsonObject();
              o.addProperty("device", device);
              o.addProperty("nic", "npu" + device);
              o.addProperty("address", address);
              npuPorts.add(o);
            });
    id.add("npu_ports", npuPorts);
    return id;
  }
}
