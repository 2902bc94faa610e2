package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.AlertmanagerServer;
import io.linkwatch.testing.LiveRules;
import io.linkwatch.testing.PrometheusServer;
import io.linkwatch.testing.SimControl;
import io.linkwatch.testing.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A fleet on loopback: eight agents on the sim, listed by file_sd with {@code cluster} and {@code
 * rack} labels, one real Prometheus with the shipped rules (windows shortened by {@code
 * grafana/test/live-config.py}), the shipped Alertmanager configuration in a real Alertmanager, and
 * a webhook receiver standing where the paging gateway would be.
 *
 * <ul>
 *   <li>Host 0 is degraded from its first run ({@code link 0 1 scale 0.6}), so it has no healthy
 *       history: its own baseline is the bad figure. Only the fleet alert can see it.
 *   <li>Host 1 is degraded once it has a baseline: the baseline alert tells it, and the fleet
 *       alert, whose condition holds too, stays quiet for it (one notification per fault).
 *   <li>No healthy host is ever notified, and both notifications resolve once the faults are
 *       removed.
 * </ul>
 *
 * Small copies (16 MiB) keep eight agents' workers light on a 2-core machine; the sim's profile is
 * the A3's with the SIO latency lowered so that such copies still measure the link's bandwidth (at
 * the A3's 0.21 ms a 16 MiB copy is mostly latency, and 0.6x the bandwidth would show as only
 * 0.8x).
 */
@Execution(ExecutionMode.CONCURRENT)
@Order(5)
class FleetLiveTest {
  static final int HOSTS = 8;

  // Passive watching is off: eight agents start on two cores at once, and eight more JVMs (the
  // watchers) would only add load to a test about fleet alerts on probe results. Passive reads and
  // their alerts are PassiveAlertsLiveTest's.
  static final String CONFIG =
      """
      passive:
        enabled: false
      probes:
        p2p:
          every: 20s
          deadline: 15s
          sizes: [16MiB]
          warmup: 1
          iterations: 3
        topology:
          every: 10m
          deadline: 30s
      """;

  @TempDir Path dir;

  @Test
  void fleetAlertCatchesTheNewBadHostAndTheBaselineAlertTheOneThatDegraded() throws Exception {
    Path profile = lowLatencyA3(dir);
    // A 5-minute baseline window instead of the live default's 2: host 1's bad samples must not
    // become its own baseline (more than half the window) before its fault is cleared, or the
    // fleet alert would rightly take over for it.
    Path rules = LiveRules.write(dir, "--range", "7d=5m", "--range", "15m=30s");

    // Degraded from the very first run: no healthy history exists for host 0.
    List<AgentProcess> agents = startAgents(dir, profile, 0);
    try (WebhookReceiver hook = WebhookReceiver.start();
        AlertmanagerServer am =
            AlertmanagerServer.start(dir, AlertmanagerServer.liveConfig(hook.url(), true));
        PrometheusServer prometheus =
            PrometheusServer.startFileSd(dir, targets(dir, agents), "2s", am.port(), rules)) {
      String bad = instance(agents.get(0));
      String degrading = instance(agents.get(1));
      long[] cpuAtStart = cpuTicks(agents);
      long started = System.nanoTime();

      JsonNode series =
          LiveRules.awaitQuery(
              prometheus,
              "linkwatch_p2p_bandwidth_bytes_per_second",
              2 * HOSTS,
              Duration.ofSeconds(120));
      assertThat(series)
          .as("file_sd labels are on every series")
          .allSatisfy(s -> assertThat(s.get("metric").get("cluster").asText()).isEqualTo("east"));

      // Host 0: the fleet alert, with everything an on-call person needs.
      JsonNode fleet =
          hook.await(
              "LinkwatchLinkBelowFleet firing for " + bad,
              firing("LinkwatchLinkBelowFleet", bad),
              Duration.ofSeconds(120));
      assertPairFields(fleet, bad, "README.md#linkwatchlinkbelowfleet");
      assertThat(fleet.get("annotations").get("baseline").asText()).endsWith("B/s (fleet median)");
      assertThat(fleet.get("labels").get("rack").asText()).isEqualTo("r1");

      // Host 1 degrades once its pair has a baseline.
      LiveRules.awaitQuery(
          prometheus,
          "linkwatch:p2p_bandwidth_bytes_per_second:baseline7d{instance=\""
              + degrading
              + "\",src=\"0\",dst=\"1\"}",
          1,
          Duration.ofSeconds(90));
      agents.get(1).faults("link 0 1 scale 0.6");
      JsonNode low =
          hook.await(
              "LinkwatchLinkBandwidthLow firing for " + degrading,
              firing("LinkwatchLinkBandwidthLow", degrading),
              Duration.ofSeconds(90));
      assertPairFields(low, degrading, "README.md#linkwatchlinkbandwidthlow");
      assertThat(low.get("annotations").get("baseline").asText()).endsWith("B/s");

      // The shipped notification template renders a real notification with those fields.
      String text = renderText(hook);
      assertThat(text).contains("instance: " + bad, "src: 0  dst: 1  link: SIO", "current: ");

      agents.get(0).faults();
      agents.get(1).faults();
      hook.await(
          "LinkwatchLinkBelowFleet resolved for " + bad,
          resolved("LinkwatchLinkBelowFleet", bad),
          Duration.ofSeconds(90));
      hook.await(
          "LinkwatchLinkBandwidthLow resolved for " + degrading,
          resolved("LinkwatchLinkBandwidthLow", degrading),
          Duration.ofSeconds(90));

      for (JsonNode a : hook.alerts()) {
        String name = a.get("labels").get("alertname").asText();
        String where = a.get("labels").path("instance").asText();
        assertThat(where).as("notified host of " + a).isIn(bad, degrading);
        if (name.equals("LinkwatchLinkBelowFleet")) {
          assertThat(where).as("the fleet alert is host 0's only").isEqualTo(bad);
        }
        if (name.equals("LinkwatchLinkBandwidthLow")) {
          assertThat(where).as("the baseline alert is host 1's only").isEqualTo(degrading);
        }
        if (a.get("labels").has("src")) {
          assertThat(
                  a.get("labels").get("src").asText() + "->" + a.get("labels").get("dst").asText())
              .isEqualTo("0->1");
        }
      }
      report(agents, cpuAtStart, System.nanoTime() - started);
    } finally {
      agents.forEach(AgentProcess::close);
    }
  }

  /** The sim's A3 with the SIO latency lowered (see the class comment). */
  static Path lowLatencyA3(Path dir) throws Exception {
    Path profile = dir.resolve("a3-low-latency.profile");
    String a3 = Files.readString(Path.of("..", "native", "profiles", "atlas-800t-a3.profile"));
    String sio = "link 0 1 SIO bandwidth 190GB/s latency 0.21ms";
    assertThat(a3).contains(sio);
    Files.writeString(profile, a3.replace(sio, "link 0 1 SIO bandwidth 190GB/s latency 0.01ms"));
    return profile;
  }

  /** {@link #HOSTS} agents started side by side; host {@code degraded} (if any) slow from start. */
  static List<AgentProcess> startAgents(Path dir, Path profile, int degraded) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(HOSTS);
    List<Future<AgentProcess>> starting = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      Path home = Files.createDirectories(dir.resolve("host-" + i));
      if (i == degraded) {
        SimControl.write(SimControl.forProcess(home), "link 0 1 scale 0.6");
      }
      starting.add(
          pool.submit(
              () ->
                  AgentProcess.start(
                      home,
                      AgentProcess.onlyProbes(CONFIG),
                      Map.of("LINKWATCH_SIM_PROFILE", profile.toString()))));
    }
    pool.shutdown();
    List<AgentProcess> agents = new ArrayList<>();
    try {
      for (Future<AgentProcess> f : starting) {
        agents.add(f.get(120, TimeUnit.SECONDS));
      }
    } catch (Exception e) {
      agents.forEach(AgentProcess::close);
      throw e;
    }
    return agents;
  }

  /** The file_sd file: one group per rack of four hosts, all in cluster east. */
  static Path targets(Path dir, List<AgentProcess> agents) throws Exception {
    StringBuilder sd = new StringBuilder();
    for (int rack = 0; rack < 2; rack++) {
      sd.append("- targets: [");
      for (int i = rack * 4; i < rack * 4 + 4; i++) {
        sd.append(i > rack * 4 ? ", " : "").append('"').append(instance(agents.get(i))).append('"');
      }
      sd.append("]\n  labels: {cluster: east, rack: r").append(rack + 1).append("}\n");
    }
    return Files.writeString(dir.resolve("targets.yml"), sd.toString());
  }

  static String instance(AgentProcess agent) {
    return "127.0.0.1:" + agent.port();
  }

  static Predicate<JsonNode> firing(String alert, String instance) {
    return a -> is(a, alert, instance) && a.get("status").asText().equals("firing");
  }

  static Predicate<JsonNode> resolved(String alert, String instance) {
    return a -> is(a, alert, instance) && a.get("status").asText().equals("resolved");
  }

  static boolean is(JsonNode a, String alert, String instance) {
    return a.get("labels").get("alertname").asText().equals(alert)
        && a.get("labels").path("instance").asText().equals(instance);
  }

  static void assertPairFields(JsonNode alert, String instance, String runbook) {
    JsonNode l = alert.get("labels");
    assertThat(l.get("src").asText()).isEqualTo("0");
    assertThat(l.get("dst").asText()).isEqualTo("1");
    assertThat(l.get("link_type").asText()).isEqualTo("SIO");
    assertThat(l.get("instance").asText()).isEqualTo(instance);
    assertThat(l.get("cluster").asText()).isEqualTo("east");
    JsonNode an = alert.get("annotations");
    assertThat(an.get("current").asText()).matches("[0-9.]+[kMGT]?B/s");
    assertThat(an.get("baseline").asText()).matches("[0-9.]+[kMGT]?B/s.*");
    assertThat(an.get("runbook").asText()).isEqualTo(runbook);
    assertThat(an.get("description").asText()).contains(instance);
  }

  /** The first notification that carried host 0's fleet alert, through linkwatch.text. */
  private String renderText(WebhookReceiver hook) throws Exception {
    String body = null;
    for (String b : hook.bodies()) {
      if (b.contains("LinkwatchLinkBelowFleet")) {
        body = b;
        break;
      }
    }
    assertThat(body).isNotNull();
    Path data = Files.writeString(dir.resolve("notification.json"), body);
    Process p =
        new ProcessBuilder(
                "amtool",
                "template",
                "render",
                "--template.glob=" + Path.of("..", "grafana", "alertmanager", "linkwatch.tmpl"),
                "--template.data=" + data,
                "--template.text={{ template \"linkwatch.text\" . }}")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), "UTF-8");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("amtool template render: " + out).isZero();
    return out;
  }

  /** utime+stime+cutime+cstime (the agent and the workers it waited for), in clock ticks. */
  static long[] cpuTicks(List<AgentProcess> agents) throws Exception {
    long[] t = new long[agents.size()];
    for (int i = 0; i < t.length; i++) {
      String stat = Files.readString(Path.of("/proc", agents.get(i).process().pid() + "", "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields 14-17 of /proc/PID/stat; f[0] is field 3 (state)
      t[i] =
          Long.parseLong(f[11])
              + Long.parseLong(f[12])
              + Long.parseLong(f[13])
              + Long.parseLong(f[14]);
    }
    return t;
  }

  /** The agents' footprint during the test, for the record (printed, not asserted). */
  static void report(List<AgentProcess> agents, long[] before, long nanos) throws Exception {
    long[] after = cpuTicks(agents);
    double seconds = nanos / 1e9;
    StringBuilder line = new StringBuilder("fleet footprint over " + Math.round(seconds) + " s:");
    double cpu = 0;
    long rss = 0;
    for (int i = 0; i < after.length; i++) {
      cpu += (after[i] - before[i]) / 100.0;
      for (String l :
          Files.readAllLines(Path.of("/proc", agents.get(i).process().pid() + "", "status"))) {
        if (l.startsWith("VmRSS:")) {
          rss += Long.parseLong(l.replaceAll("\\D", ""));
        }
      }
    }
    line.append(
        String.format(
            " %d agents, CPU (agents + their workers) %.1f s = %.1f %% of a core per agent,"
                + " RSS %.0f MiB per agent",
            agents.size(), cpu, 100 * cpu / seconds / agents.size(), rss / 1024.0 / agents.size()));
    System.out.println(line);
  }
}
