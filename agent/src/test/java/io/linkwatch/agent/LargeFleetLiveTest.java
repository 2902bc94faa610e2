package io.linkwatch.agent;

import static io.linkwatch.agent.FleetLiveTest.firing;
import static io.linkwatch.agent.FleetLiveTest.instance;
import static io.linkwatch.agent.FleetLiveTest.resolved;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.AlertmanagerServer;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.LiveRules;
import io.linkwatch.testing.PrometheusServer;
import io.linkwatch.testing.ShippedUnit;
import io.linkwatch.testing.VictoriaProcess;
import io.linkwatch.testing.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/large-fleet} on loopback: eight agents on the sim, two vmagent scrape shards each
 * scraping its share of them into one VictoriaMetrics, the shipped rules evaluated once by vmalert
 * against that store, the shipped Alertmanager configuration in a real Alertmanager, and a webhook
 * receiver where the paging gateway would be. Every binary runs with the flags of the shipped unit
 * and environment files; the test replaces addresses, paths and the intervals it shortens (the
 * rules' windows by {@code grafana/test/live-config.py}, as every live rules test does).
 *
 * <ul>
 *   <li>Each host is scraped by exactly one shard, and the two shards together scrape all.
 *   <li>A healthy fleet holds no alert, pending or firing.
 *   <li>A link slowed on one host fires the fleet-relative alert once for that host and pair,
 *       though the fleet it is compared with was scraped by two shards; it resolves when the link
 *       is back.
 *   <li>A shard stopped: LinkwatchTargetMissing fires for each of its hosts and for no other, and
 *       LinkwatchAgentDown, the alert for a failing scrape, stays quiet: the stopped shard writes
 *       no {@code up == 0}, so without the new alert nothing would have told of those hosts. The
 *       shard started again, they resolve.
 * </ul>
 *
 * The baselines keep their 1-hour offset, so none exists during the test and the fleet alert is the
 * one link alert that can fire: the case of a host whose link is bad from its first day.
 */
// In the sequential lane, not beside the timing-sensitive tests there: eight agents, two shards, a
// store and vmalert on two cores load the machine as much as FleetLiveTest, already in the other.
class LargeFleetLiveTest {
  static final Path DEPLOY = Path.of("..", "deploy", "large-fleet");
  static final int HOSTS = FleetLiveTest.HOSTS;

  @TempDir Path dir;

  @Test
  void rulesEvaluatedOnceOverTheShardsNameTheSlowHostAndEveryHostOfAStoppedShard()
      throws Exception {
    Path profile = FleetLiveTest.lowLatencyA3(dir);
    // The default windows; the offset stays 1 h (see the class comment).
    Path rules = LiveRules.write(dir, "--offset", "1h=1h");
    List<AgentProcess> agents = FleetLiveTest.startAgents(dir, profile, -1);
    List<VictoriaProcess> shards = new ArrayList<>();
    try (WebhookReceiver hook = WebhookReceiver.start();
        AlertmanagerServer am =
            AlertmanagerServer.start(dir, AlertmanagerServer.liveConfig(hook.url(), true));
        VictoriaProcess store = startStore()) {
      Path scrape = scrapeConfig(FleetLiveTest.targets(dir, agents));
      for (int shard = 0; shard < 2; shard++) {
        shards.add(startShard(shard, scrape, store));
      }
      List<Set<String>> owned = ownedTargets(shards);
      assertThat(owned).allSatisfy(s -> assertThat(s).as("a shard's hosts").isNotEmpty());
      Set<String> all = new TreeSet<>(owned.get(0));
      all.addAll(owned.get(1));
      assertThat(all).as("the shards' hosts together").hasSize(HOSTS);
      assertThat(owned.get(0).size() + owned.get(1).size()).as("no host on both").isEqualTo(HOSTS);

      // vmalert starts once every host has an up series in the store: before that the
      // "no target at all" half of LinkwatchAgentDown would rightly be pending.
      LiveRules.awaitQuery(store, "up{job=\"linkwatch\"} == 1", HOSTS, Duration.ofSeconds(60));
      try (VictoriaProcess ruler = startRules(rules, store, am)) {
        // Recorded by vmalert and written back: every host's p2p figures are in one fleet.
        JsonNode hosts =
            LiveRules.awaitQuery(
                store,
                "linkwatch:p2p_bandwidth_bytes_per_second:fleet_hosts{cluster=\"east\"} == "
                    + HOSTS,
                1,
                Duration.ofSeconds(150));
        assertThat(hosts.get(0).get("metric").get("link_type").asText()).isEqualTo("SIO");

        // A healthy fleet: nothing pending or firing, evaluation after evaluation.
        for (int i = 0; i < 20; i++) {
          assertThat(LiveRules.names(ruler.alerts())).as("alerts of a healthy fleet").isEmpty();
          Thread.sleep(1000);
        }
        assertThat(hook.alerts()).as("notifications of a healthy fleet").isEmpty();

        String bad = instance(agents.get(0));
        agents.get(0).faults("link 0 1 scale 0.6");
        JsonNode fleet =
            hook.await(
                "LinkwatchLinkBelowFleet firing for " + bad,
                firing("LinkwatchLinkBelowFleet", bad),
                Duration.ofSeconds(120));
        FleetLiveTest.assertPairFields(fleet, bad, "README.md#linkwatchlinkbelowfleet");
        assertThat(fleet.get("annotations").get("baseline").asText())
            .endsWith("B/s (fleet median)");
        // Once: one alert in the ruler, one firing ALERTS series in the store, one in the
        // notifications, whichever shard scraped the host and its peers.
        assertThat(named(ruler.alerts(), "LinkwatchLinkBelowFleet")).hasSize(1);
        // (vmalert writes ALERTS into the store every few seconds: wait for it, then count)
        String alertsSeries = "ALERTS{alertname=\"LinkwatchLinkBelowFleet\",alertstate=\"firing\"}";
        LiveRules.awaitQuery(store, alertsSeries, 1, Duration.ofSeconds(30));
        assertThat(store.query(alertsSeries)).hasSize(1);
        assertThat(distinct(hook.alerts(), "LinkwatchLinkBelowFleet"))
            .containsExactly(bad + " 0->1");

        agents.get(0).faults();
        hook.await(
            "LinkwatchLinkBelowFleet resolved for " + bad,
            resolved("LinkwatchLinkBelowFleet", bad),
            Duration.ofSeconds(90));

        // Stop shard 1: its hosts' series stop arriving.
        VictoriaProcess stopped = shards.get(1);
        stopped.close();
        for (String host : owned.get(1)) {
          hook.await(
              "LinkwatchTargetMissing firing for " + host,
              firing("LinkwatchTargetMissing", host),
              Duration.ofSeconds(90));
        }
        Set<String> missing = new TreeSet<>();
        for (JsonNode a : named(ruler.alerts(), "LinkwatchTargetMissing")) {
          missing.add(a.get("labels").get("instance").asText());
        }
        assertThat(missing).as("hosts reported missing").isEqualTo(owned.get(1));
        assertThat(named(ruler.alerts(), "LinkwatchAgentDown"))
            .as("a stopped shard writes no up == 0: the failing-scrape alert cannot see it")
            .isEmpty();
        // The fleet dashboard's "Agents not scraped" table, asked of the store, lists them (with
        // the rules' shortened lookback: by default a series is gone 5 minutes after its last
        // sample, as in Prometheus).
        Set<String> listed = new TreeSet<>();
        for (JsonNode row : store.query(notScrapedQuery(), "10s")) {
          assertThat(row.get("metric").get("state").asText()).isEqualTo("no scraper");
          listed.add(row.get("metric").get("instance").asText());
        }
        assertThat(listed).as("the fleet dashboard's hosts not scraped").isEqualTo(owned.get(1));

        shards.set(1, restart(stopped));
        for (String host : owned.get(1)) {
          hook.await(
              "LinkwatchTargetMissing resolved for " + host,
              resolved("LinkwatchTargetMissing", host),
              Duration.ofSeconds(90));
        }

        for (JsonNode a : hook.alerts()) {
          String name = a.get("labels").get("alertname").asText();
          String where = a.get("labels").path("instance").asText();
          if (name.equals("LinkwatchTargetMissing")) {
            assertThat(where).as("missing host of " + a).isIn(owned.get(1));
          } else {
            // The slowed link also reads asymmetric (0->1 against 1->0) on the same host.
            assertThat(where).as("notified host of " + a).isEqualTo(bad);
          }
        }
      }
    } finally {
      shards.forEach(VictoriaProcess::close);
      agents.forEach(AgentProcess::close);
    }
  }

  /** The shipped fleet dashboard's "Agents not scraped" query, every cluster and host selected. */
  private static String notScrapedQuery() throws Exception {
    JsonNode dashboard =
        JsonTrees.MAPPER.readTree(
            Path.of("..", "grafana", "dashboards", "linkwatch-fleet.json").toFile());
    for (JsonNode panel : dashboard.get("panels")) {
      if (panel.path("title").asText().equals("Agents not scraped")) {
        return panel
            .get("targets")
            .get(0)
            .get("expr")
            .asText()
            .replace("$cluster", ".*")
            .replace("$instance", ".*");
      }
    }
    throw new AssertionError("the fleet dashboard has no panel \"Agents not scraped\"");
  }

  /** The store: Debian's unit runs {@code victoria-metrics $ARGS} from the shipped default. */
  private VictoriaProcess startStore() throws Exception {
    int port = PrometheusServer.freePort();
    String shipped =
        ShippedUnit.environment(DEPLOY.resolve("victoria-metrics.default")).get("ARGS");
    assertThat(shipped).as("victoria-metrics.default sets ARGS").isNotNull();
    List<String> args =
        ShippedUnit.withFlags(
            List.of(shipped.strip().split("\\s+")),
            Map.of(
                "-storageDataPath",
                Files.createDirectories(dir.resolve("store")).toString(),
                "-httpListenAddr",
                "127.0.0.1:" + port,
                // test only: samples searchable 1 s after they arrive (30 s by default), and no
                // cached answers while the data is this young
                "-search.latencyOffset",
                "1s",
                "-search.disableCache",
                ""));
    List<String> command = new ArrayList<>(List.of("/usr/bin/victoria-metrics"));
    command.addAll(args);
    return VictoriaProcess.start(command, port, dir.resolve("store.log"));
  }

  /** The shipped scrape.yml, scraping every 2 s, its targets in {@code targets}. */
  private Path scrapeConfig(Path targets) throws Exception {
    String shipped = Files.readString(DEPLOY.resolve("scrape.yml"));
    String c =
        replaceOnce(shipped, "scrape_interval: 30s", "scrape_interval: 2s")
            .replace("scrape_timeout: 10s", "scrape_timeout: 2s");
    c =
        replaceOnce(
            c, "files: [\"targets/*.yml\"]", "files: [\"" + targets.toAbsolutePath() + "\"]");
    return Files.writeString(dir.resolve("scrape.yml"), c);
  }

  private VictoriaProcess startShard(int shard, Path scrape, VictoriaProcess store)
      throws Exception {
    int port = PrometheusServer.freePort();
    Map<String, String> env =
        new HashMap<>(ShippedUnit.environment(DEPLOY.resolve("vmagent-linkwatch.default")));
    env.put("LISTEN", "127.0.0.1:" + port);
    env.put("SHARDS", "2");
    env.put("SHARD", Integer.toString(shard));
    env.put("STORE", store.url());
    List<String> command =
        ShippedUnit.withFlags(
            ShippedUnit.execStart(DEPLOY.resolve("vmagent-linkwatch.service"), env),
            Map.of(
                "-promscrape.config", scrape.toString(),
                "-promscrape.fileSDCheckInterval", "2s",
                "-remoteWrite.tmpDataPath",
                    Files.createDirectories(dir.resolve("shard-" + shard)).toString()));
    return VictoriaProcess.start(command, port, dir.resolve("shard-" + shard + ".log"));
  }

  /** The same shard again, on its port, with what it had queued on disk. */
  private VictoriaProcess restart(VictoriaProcess shard) throws Exception {
    return VictoriaProcess.start(
        shard.command(), shard.port(), dir.resolve("shard-restarted-" + shard.port() + ".log"));
  }

  private VictoriaProcess startRules(Path rules, VictoriaProcess store, AlertmanagerServer am)
      throws Exception {
    int port = PrometheusServer.freePort();
    Map<String, String> env =
        new HashMap<>(ShippedUnit.environment(DEPLOY.resolve("vmalert-linkwatch.default")));
    env.put("LISTEN", "127.0.0.1:" + port);
    env.put("STORE", store.url());
    env.put("ALERTMANAGER", "http://127.0.0.1:" + am.port());
    env.put("EXTERNAL_URL", "http://127.0.0.1:" + port);
    List<String> command =
        ShippedUnit.withFlags(
            ShippedUnit.execStart(DEPLOY.resolve("vmalert-linkwatch.service"), env),
            Map.of(
                "-rule", rules.toString(),
                "-evaluationInterval", "2s",
                // test only: a series is gone 10 s after its last sample (5 m by default, as
                // Prometheus' lookback), so a stopped shard's hosts go missing within the test
                "-datasource.queryStep", "10s"));
    return VictoriaProcess.start(command, port, dir.resolve("vmalert.log"));
  }

  /** Each shard's hosts, once every host is on one (a shard lists the targets it scrapes). */
  private static List<Set<String>> ownedTargets(List<VictoriaProcess> shards) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      List<Set<String>> owned = new ArrayList<>();
      int total = 0;
      for (VictoriaProcess shard : shards) {
        Set<String> hosts = new TreeSet<>();
        for (JsonNode t : shard.targets()) {
          hosts.add(t.get("labels").get("instance").asText());
        }
        owned.add(hosts);
        total += hosts.size();
      }
      if (total >= HOSTS || System.nanoTime() > end) {
        return owned;
      }
      Thread.sleep(500);
    }
  }

  private static List<JsonNode> named(JsonNode alerts, String name) {
    List<JsonNode> out = new ArrayList<>();
    alerts.forEach(
        a -> {
          if (a.get("labels").get("alertname").asText().equals(name)) {
            out.add(a);
          }
        });
    return out;
  }

  /** The distinct hosts and pairs {@code name} was notified for, as "instance src->dst". */
  private static Set<String> distinct(List<JsonNode> notified, String name) {
    Set<String> out = new TreeSet<>();
    for (JsonNode a : notified) {
      JsonNode l = a.get("labels");
      if (l.get("alertname").asText().equals(name)) {
        out.add(
            l.get("instance").asText()
                + " "
                + l.get("src").asText()
                + "->"
                + l.get("dst").asText());
      }
    }
    return out;
  }

  private static String replaceOnce(String text, String what, String with) {
    assertThat(text).as("the shipped file contains " + what).contains(what);
    return text.replace(what, with);
  }
}
