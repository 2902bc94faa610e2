package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.BridgedNamespaces;
import io.linkwatch.testing.LiveRules;
import io.linkwatch.testing.PrometheusServer;
import io.linkwatch.testing.StatusLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six agents, each in a network namespace of its own, joined by veth pairs to two bridges, two
 * switches joined by an uplink: hosts 0 to 2 under switch {@code sw-a}, 3 to 5 under {@code sw-b},
 * as the member list's {@code tor} labels say. The probes between servers over real sockets, with
 * real packet loss (nft in a namespace) and a real switch failing (a bridge set down).
 *
 * <ul>
 *   <li>Hosts 0 to 2 list the members statically; hosts 3 to 5 read them from host 0's {@code
 *       /api/v1/peers} (Prometheus HTTP SD JSON), and so does a real Prometheus with the shipped
 *       rules, scraping every agent across the bridge.
 *   <li>Healthy: every agent has met all five peers within one cover period, nobody is named, and
 *       no agent has taken part in more probes than its budget allows.
 *   <li>All of host 4's traffic dropped: within two covers its peers name it, nobody else is named,
 *       and LinkwatchPeerUnreachable fires for it; it clears when the drop is removed.
 *   <li>30 % of what host 2 sends dropped: host 2 names its own NIC, its peers name host 2, nobody
 *       else is named; LinkwatchPeerNicFailing fires for host 2 and resolves.
 *   <li>Switch {@code sw-b} fails: hosts 0 to 2 name the switch, once, and none of the hosts under
 *       it; LinkwatchPeerSwitchFailing fires for it and resolves once it is back.
 *   <li>Host 5's agent stopped: its peers find it down (its host refuses the connection), nobody
 *       else is named, and the others go on meeting each other.
 * </ul>
 *
 * Each host also has two NPU ports on a second fabric of their own (a second bridge), addressed in
 * its {@code hccn.conf}, and pings from each port to the same port of its partners with the sim's
 * {@code hccn_tool -ping}, which sends real ICMP echoes from the port's address:
 *
 * <ul>
 *   <li>Healthy: every agent has pinged both ports of all five peers.
 *   <li>Host 1's second port dead (nft drops what it sends and what is sent to it): host 1 names
 *       that port, its peers name host 1's port, nobody else is named, and LinkwatchPeerNicFailing
 *       fires for host 1 through npu1; all of it clears when the port is back.
 * </ul>
 *
 * Needs root (namespaces, veth, nft): skipped elsewhere; CI runs as root. The default 20 echoes a
 * probe keep a single echo delayed past its timeout on a loaded machine from reading as loss.
 */
// Last of all, in the first lane: anywhere earlier its two minutes shift which long tests overlap
// (in the second lane it moved FleetLiveTest's eight agent starts beside CheckLiveTest's 10 s
// check; early in the first, beside SlowClientsLiveTest's 100 ms scrapes), and both failed.
@Order(Integer.MAX_VALUE)
class PeerNetnsLiveTest {
  private static final int HOSTS = 6;
  private static final int PORT = 10187;
  // Members under one switch also meet in a circle of their own every round: up to three meetings
  // a round, which the budget must pay for at 4 s rounds or the rounds are stretched.
  private static final int BUDGET = 14400;
  private static final int NPU_PORTS = 2;
  private static final Pattern SUSPECT =
      Pattern.compile(
          "linkwatch_peer_suspect\\{kind=\"(\\w+)\",suspect_host=\"([^\"]+)\",[^}]*verdict=\"(\\w+)\"\\}");

  @TempDir Path dir;

  private final BridgedNamespaces hosts = new BridgedNamespaces("lwp", "10.231");
  private final List<AgentProcess> agents = new ArrayList<>();

  private String ns(int i) {
    return hosts.ns(i);
  }

  private String ip(int i) {
    return hosts.ip(i);
  }

  private String member(int i) {
    return ip(i) + ":" + PORT;
  }

  @Test
  void peersNameTheFaultyHostAndNobodyElse() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "network namespaces need root (CI runs as root)");
    hosts.make(HOSTS).secondSwitch(3, HOSTS);
    hosts.makeNpuPlane(HOSTS, NPU_PORTS);
    long born = System.nanoTime();
    startAgents();
    Path rules = LiveRules.write(dir, "--for", "10s");
    try (PrometheusServer prometheus =
        PrometheusServer.startHttpSd(dir, "http://" + member(0) + "/api/v1/peers", "2s", rules)) {
      double cover = awaitPlans();

      // Healthy: after one cover (and the rounds the starts were apart) every agent has met all
      // five peers, and nobody is named.
      awaitAll(
          "every agent met its 5 peers",
          Duration.ofSeconds((long) (3 * cover)),
          i -> verdicts(i, "eth0", "ok") == HOSTS - 1);
      awaitAll(
          "every agent pinged both NPU ports of its 5 peers",
          Duration.ofSeconds((long) (3 * cover)),
          i -> verdicts(i, "npu0", "ok") == HOSTS - 1 && verdicts(i, "npu1", "ok") == HOSTS - 1);
      assertThat(suspects(allHosts())).as("suspects while healthy").isEmpty();
      // The status page's section says the same.
      assertThat(agents.get(3).get("/").body())
          .contains("Paths to other servers")
          .contains("6 members from http_sd; this host is " + member(3))
          .contains("<tr data-verdict=\"ok\"><td>ok<td class=\"cell ok\">5</tr>")
          .contains("This host's probes name nobody");
      double hours = (System.nanoTime() - born) / 3.6e12;
      for (int i = 0; i < HOSTS; i++) {
        String m = agents.get(i).metrics();
        double lastHour = value(m, "linkwatch_peer_probes_last_hour");
        assertThat(lastHour).as("host " + i + " probes in the last hour").isPositive();
        // The plan spends half the budget (a quarter in meetings, two probes each): prorated to
        // the run, plus one round's most (four meetings).
        assertThat(lastHour)
            .as("host " + i + " probes against its budget, prorated to the run")
            .isLessThanOrEqualTo(BUDGET / 2.0 * hours + 8);
      }
      LiveRules.awaitQuery(prometheus, "linkwatch_peer_members", HOSTS, Duration.ofSeconds(30));

      // Host 1's second NPU port dead: nothing leaves it and nothing reaches it.
      String port = hosts.npuIp(1, 1);
      nft(1, "add table inet lwfault");
      nft(1, "add chain inet lwfault in { type filter hook input priority 0; }");
      nft(1, "add chain inet lwfault out { type filter hook output priority 0; }");
      nft(1, "add rule inet lwfault in ip daddr " + port + " drop");
      nft(1, "add rule inet lwfault out ip saddr " + port + " drop");
      Set<String> npuNamed =
          awaitNamed(Set.of(1), member(1), "self", Duration.ofSeconds((long) (3 * cover)));
      npuNamed.addAll(
          awaitNamed(
              Set.of(0, 2, 3, 4, 5), 2, member(1), "peer", Duration.ofSeconds((long) (3 * cover))));
      assertThat(npuNamed).as("hosts named while host 1's npu1 is dead").containsOnly(member(1));
      assertThat(suspectNics(Set.of(0, 1, 2, 3, 4, 5)))
          .as("the port named, never the host's own NIC or the other port")
          .containsOnly("npu1");
      JsonNode npuAlert =
          LiveRules.awaitFiring(prometheus, "LinkwatchPeerNicFailing", Duration.ofSeconds(90));
      assertThat(npuAlert)
          .allSatisfy(
              a -> {
                assertThat(a.get("labels").get("instance").asText()).isEqualTo(member(1));
                assertThat(a.get("annotations").get("summary").asText()).endsWith(" through npu1");
              });
      assertThat(StatusLine.await("http://" + member(1), "FAIL", Duration.ofSeconds(30)))
          .startsWith("FAIL - network npu1: LW-PEER-NIC ");
      nft(1, "delete table inet lwfault");
      awaitClear(allHosts(), cover);
      awaitAlertGone(prometheus, "LinkwatchPeerNicFailing");

      // 100 % loss on host 4's veth.
      nft(4, "add table inet lwfault");
      nft(4, "add chain inet lwfault in { type filter hook input priority 0; }");
      nft(4, "add chain inet lwfault out { type filter hook output priority 0; }");
      nft(4, "add rule inet lwfault in iifname eth0 drop");
      nft(4, "add rule inet lwfault out oifname eth0 drop");
      Set<String> named =
          awaitNamed(
              Set.of(0, 1, 2, 3, 5), member(4), "peer", Duration.ofSeconds((long) (2 * cover)));
      assertThat(named).as("hosts named while host 4 drops everything").containsOnly(member(4));
      JsonNode unreachable =
          LiveRules.awaitFiring(prometheus, "LinkwatchPeerUnreachable", Duration.ofSeconds(90));
      assertThat(unreachable)
          .allSatisfy(
              a -> assertThat(a.get("labels").get("instance").asText()).isEqualTo(member(4)));
      nft(4, "delete table inet lwfault");
      awaitClear(allHosts(), cover);
      awaitAlertGone(prometheus, "LinkwatchPeerUnreachable");

      // 30 % of what host 2 sends dropped.
      nft(2, "add table inet lwfault");
      nft(2, "add chain inet lwfault out { type filter hook output priority 0; }");
      nft(2, "add rule inet lwfault out oifname eth0 numgen random mod 10 < 3 drop");
      named = awaitNamed(Set.of(2), member(2), "self", Duration.ofSeconds((long) (2 * cover)));
      // Its peers name it too (two are what the fleet's rule needs; a train of ten at 30 % loss
      // comes back whole now and then, so not every peer need name it at every moment).
      named.addAll(
          awaitNamed(
              Set.of(0, 1, 3, 4, 5), 2, member(2), "peer", Duration.ofSeconds((long) (2 * cover))));
      assertThat(named).as("hosts named while host 2 loses 30 % outbound").containsOnly(member(2));
      JsonNode nic =
          LiveRules.awaitFiring(prometheus, "LinkwatchPeerNicFailing", Duration.ofSeconds(90));
      assertThat(nic)
          .allSatisfy(
              a -> {
                assertThat(a.get("labels").get("instance").asText()).isEqualTo(member(2));
                assertThat(a.get("annotations").get("summary").asText()).endsWith(" through eth0");
              });
      assertThat(LiveRules.names(prometheus.alerts()))
          .as("one alert for host 2's fault")
          .doesNotContain("LinkwatchPeerUnreachable");
      // Host 2's own verdict, as a health check reads it; a peer that names host 2 stays OK.
      assertThat(StatusLine.await("http://" + member(2), "FAIL", Duration.ofSeconds(30)))
          .startsWith("FAIL - network eth0: LW-PEER-NIC ");
      agents.get(2).awaitMetrics(Duration.ofSeconds(30), "linkwatch_finding{code=\"LW-PEER-NIC\"");
      assertThat(agents.get(2).get("/api/v1/status").body()).contains("\"kind\": \"self\"");
      assertThat(agents.get(2).get("/").body()).contains("<tr data-kind=\"this host\">");
      assertThat(StatusLine.of("http://" + member(0))).doesNotContain("LW-PEER");
      // linkwatch check on host 2 measures its devices and takes the agent's evidence between
      // servers: a prolog there keeps the host out of the job.
      ProcessBuilder check =
          io.linkwatch.testing.JavaProcess.builder(
              java.util.Map.of(),
              "check",
              "--config",
              dir.resolve("host-2").resolve("linkwatch.yaml").toString());
      check.command().addAll(0, List.of("ip", "netns", "exec", ns(2)));
      Process c = check.redirectErrorStream(true).start();
      String out = new String(c.getInputStream().readAllBytes());
      assertThat(c.waitFor()).as(out).isEqualTo(1);
      assertThat(out).as(out).startsWith("FAIL - network eth0: LW-PEER-NIC ");
      nft(2, "delete table inet lwfault");
      awaitClear(allHosts(), cover);
      awaitAlertGone(prometheus, "LinkwatchPeerNicFailing");

      // Switch sw-b fails: hosts 3 to 5 reach nobody, not even each other, and nobody reaches
      // them (their agents' metrics are out of reach from here, as from Prometheus).
      hosts.secondSwitchUp(false);
      awaitAll(
          "hosts 0 to 2 name switch sw-b, and only it",
          Duration.ofSeconds((long) (3 * cover)),
          i -> i >= 3 || suspects(Set.of(i)).equals(Set.of("tor sw-b")));
      JsonNode tor =
          LiveRules.awaitFiring(prometheus, "LinkwatchPeerSwitchFailing", Duration.ofSeconds(90));
      assertThat(tor)
          .allSatisfy(a -> assertThat(a.get("labels").get("tor").asText()).isEqualTo("sw-b"));
      assertThat(StatusLine.of("http://" + member(0)))
          .as("a switch elsewhere is no fault of this host's")
          .doesNotContain("LW-PEER");
      hosts.secondSwitchUp(true);
      awaitClear(allHosts(), cover);
      awaitAlertGone(prometheus, "LinkwatchPeerSwitchFailing");

      // Host 5's agent stopped: its host is there and refuses the connection.
      double[] sentBefore = new double[5];
      for (int i = 0; i < 5; i++) {
        sentBefore[i] =
            value(agents.get(i).metrics(), "linkwatch_peer_probes_total{kind=\"sent\"}");
      }
      assertThat(agents.get(5).terminate(Duration.ofSeconds(20))).isNotEqualTo(-1);
      named =
          awaitNamed(
              Set.of(0, 1, 2, 3, 4), member(5), "peer", Duration.ofSeconds((long) (2 * cover)));
      assertThat(named).as("hosts named while host 5's agent is stopped").containsOnly(member(5));
      awaitAll(
          "host 5 found down by every peer",
          Duration.ofSeconds((long) (2 * cover)),
          i -> i == 5 || verdicts(i, "eth0", "agent_down") == 1);
      for (int i = 0; i < 5; i++) {
        String m = agents.get(i).metrics();
        assertThat(value(m, "linkwatch_peer_probes_total{kind=\"sent\"}"))
            .as("host " + i + " goes on probing")
            .isGreaterThan(sentBefore[i] + 2);
        assertThat(verdicts(i, "eth0", "ok"))
            .as("host " + i + " meets the other four")
            .isEqualTo(4);
        assertThat(m).contains("suspect_host=\"" + member(5) + "\"").contains("agent_down");
      }
    }
  }

  /** Every agent's cover period in seconds, once each has a plan (the same for all). */
  private double awaitPlans() throws Exception {
    awaitAll(
        "every agent has a plan",
        Duration.ofSeconds(60),
        i -> agents.get(i).metrics().contains("linkwatch_peer_cover_seconds "));
    return value(agents.get(0).metrics(), "linkwatch_peer_cover_seconds");
  }

  private interface HostCheck {
    boolean test(int host) throws Exception;
  }

  private void awaitAll(String what, Duration timeout, HostCheck check) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    List<Integer> failing = new ArrayList<>();
    while (true) {
      failing.clear();
      for (int i = 0; i < agents.size(); i++) {
        if (agents.get(i).process().isAlive() && !check.test(i)) {
          failing.add(i);
        }
      }
      if (failing.isEmpty()) {
        return;
      }
      if (System.nanoTime() > end) {
        StringBuilder shown = new StringBuilder();
        for (int i : failing) {
          shown.append("\nhost ").append(i).append(":\n").append(peerLines(i));
        }
        throw new AssertionError(what + ": not yet on hosts " + failing + shown);
      }
      Thread.sleep(1000);
    }
  }

  /**
   * Polls the agents {@code from} until each names {@code host} as {@code kind}, or the time is up;
   * returns every member any reachable agent named meanwhile.
   */
  private Set<String> awaitNamed(Set<Integer> from, String host, String kind, Duration timeout)
      throws Exception {
    return awaitNamed(from, from.size(), host, kind, timeout);
  }

  /** As above, until at least {@code atLeast} of the agents {@code from} name it. */
  private Set<String> awaitNamed(
      Set<Integer> from, int atLeast, String host, String kind, Duration timeout) throws Exception {
    Set<String> named = new TreeSet<>();
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      int naming = 0;
      for (int i : from) {
        naming += suspects(Set.of(i)).contains(kind + " " + host) ? 1 : 0;
      }
      boolean all = naming >= atLeast;
      for (String s : suspects(allHosts())) {
        named.add(s.substring(s.indexOf(' ') + 1));
      }
      if (all) {
        return named;
      }
      if (System.nanoTime() > end) {
        StringBuilder shown = new StringBuilder();
        for (int i : from) {
          shown.append("\nhost ").append(i).append(":\n").append(peerLines(i));
        }
        throw new AssertionError(
            "fewer than "
                + atLeast
                + " hosts of "
                + from
                + " named "
                + host
                + " as "
                + kind
                + shown);
      }
      Thread.sleep(1000);
    }
  }

  private void awaitClear(Set<Integer> hosts, double cover) throws Exception {
    awaitAll(
        "nobody named once the fault is gone",
        Duration.ofSeconds((long) (3 * cover)),
        i -> !hosts.contains(i) || suspects(Set.of(i)).isEmpty());
  }

  private static void awaitAlertGone(PrometheusServer p, String name) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (LiveRules.names(p.alerts()).contains(name)) {
      assertThat(System.nanoTime()).as(name + " still active: " + p.alerts()).isLessThan(end);
      Thread.sleep(1000);
    }
  }

  private Set<Integer> allHosts() {
    Set<Integer> all = new TreeSet<>();
    for (int i = 0; i < HOSTS; i++) {
      all.add(i);
    }
    return all;
  }

  /** The NICs of the suspects the reachable agents among {@code hosts} name now. */
  private Set<String> suspectNics(Set<Integer> hosts) throws Exception {
    Set<String> out = new TreeSet<>();
    Matcher x;
    for (int i : hosts) {
      if (agents.get(i).process().isAlive()) {
        x =
            Pattern.compile("linkwatch_peer_suspect\\{[^}]*suspect_nic=\"([^\"]*)\"")
                .matcher(agents.get(i).metrics());
        while (x.find()) {
          out.add(x.group(1));
        }
      }
    }
    return out;
  }

  /** "kind member" for each suspect the reachable agents among {@code hosts} name now. */
  private Set<String> suspects(Set<Integer> hosts) {
    Set<String> out = new TreeSet<>();
    for (int i : hosts) {
      if (!agents.get(i).process().isAlive()) {
        continue;
      }
      String m;
      try {
        m = agents.get(i).metrics();
      } catch (Exception e) {
        continue; // host 4 with its traffic dropped: unreachable from here, as from Prometheus
      }
      Matcher x = SUSPECT.matcher(m);
      while (x.find()) {
        out.add(x.group(1) + " " + x.group(2));
      }
    }
    return out;
  }

  /** The peers whose latest probe from {@code nic} had {@code verdict}. */
  private int verdicts(int host, String nic, String verdict) throws Exception {
    String m = agents.get(host).metrics();
    Matcher x =
        Pattern.compile(
                "linkwatch_peer_paths\\{src_nic=\""
                    + nic
                    + "\",verdict=\""
                    + verdict
                    + "\"\\} (\\S+)")
            .matcher(m);
    int n = 0;
    while (x.find()) {
      n += (int) Double.parseDouble(x.group(1));
    }
    return n;
  }

  private String peerLines(int host) {
    try {
      return String.join(
          "\n",
          agents.get(host).metrics().lines().filter(l -> l.startsWith("linkwatch_peer_")).toList());
    } catch (Exception e) {
      return "(unreachable: " + e + ")";
    }
  }

  private static double value(String metrics, String series) {
    for (String line : metrics.lines().toList()) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).strip());
      }
    }
    throw new AssertionError(series + " not in:\n" + metrics);
  }

  private void startAgents() throws Exception {
    StringBuilder members = new StringBuilder();
    for (int i = 0; i < HOSTS; i++) {
      members
          .append("    - {host: \"")
          .append(member(i))
          .append("\", tor: ")
          .append(i < 3 ? "sw-a" : "sw-b")
          .append("}\n");
    }
    ExecutorService pool = Executors.newFixedThreadPool(HOSTS);
    List<Future<AgentProcess>> starting = new ArrayList<>();
    String tool = Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool").toString();
    for (int i = 0; i < HOSTS; i++) {
      Path home = Files.createDirectories(dir.resolve("host-" + i));
      StringBuilder addresses = new StringBuilder();
      for (int d = 0; d < NPU_PORTS; d++) {
        addresses.append("address_").append(d).append('=').append(hosts.npuIp(i, d)).append('\n');
      }
      Path hccnConf = Files.writeString(home.resolve("hccn.conf"), addresses);
      String source =
          i < 3
              ? "  static:\n" + members
              : "  http_sd: http://" + member(0) + "/api/v1/peers\n  http_sd_refresh: 2s\n";
      String config =
          "passive:\n  enabled: false\n  hccn_tool: {command: "
              + tool
              + "}\n"
              + "peers:\n  npu_ping: {enabled: true, hccn_conf: "
              + hccnConf
              + "}\n  round: 4s\n  budget_per_hour: "
              + BUDGET
              + "\n  timeout: 1s\n"
              + source
              + "probes:\n  topology: {enabled: false}\n";
      int host = i;
      starting.add(
          pool.submit(
              () ->
                  AgentProcess.startWrapped(
                      home,
                      List.of("ip", "netns", "exec", ns(host)),
                      member(host),
                      AgentProcess.onlyProbes(config),
                      // The sim's hccn_tool takes its ports' addresses from the same file.
                      java.util.Map.of("LINKWATCH_SIM_HCCN_CONF", hccnConf.toString()))));
    }
    pool.shutdown();
    for (Future<AgentProcess> f : starting) {
      agents.add(f.get(120, TimeUnit.SECONDS));
    }
  }

  private void nft(int host, String command) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("nft"));
    cmd.addAll(List.of(command.split(" ")));
    hosts.in(host, cmd.toArray(String[]::new));
  }

  @AfterEach
  void tearDown() throws Exception {
    agents.forEach(AgentProcess::close);
    hosts.close();
  }
}
