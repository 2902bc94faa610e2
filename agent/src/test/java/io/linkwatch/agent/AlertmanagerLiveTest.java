package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AlertmanagerServer;
import io.linkwatch.testing.WebhookReceiver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped Alertmanager configuration in a real Alertmanager, fed alerts the way Prometheus
 * posts them: notifications are grouped per host, and the inhibition rules hold back what another
 * alert of the same host already says (the agent being down covers its probe alerts; a pair's
 * baseline or fleet alert covers its asymmetry and peer alerts). With the inhibition rules taken
 * out the same alerts are all notified, so it is the rules that hold them back.
 */
class AlertmanagerLiveTest {
  @TempDir Path dir;

  /**
   * Host a3-01's agent is down and its probe alert is still held; host a3-02 has a slow pair 0->1
   * (fleet alert, and the asymmetry it causes) and a probe failing; host a3-03 has only an
   * asymmetry, on a pair nothing else covers; a3-02's 1->0 asymmetry is another pair.
   */
  static final String ALERTS =
      "["
          + alert("LinkwatchAgentDown", "critical", "a3-01:10187", "")
          + ","
          + alert(
              "LinkwatchProbeFailing",
              "critical",
              "a3-01:10187",
              ",\"probe\":\"p2p\",\"target\":\"0->1\"")
          + ","
          + alert("LinkwatchLinkBelowFleet", "warning", "a3-02:10187", pair("0", "1"))
          + ","
          + alert("LinkwatchLinkAsymmetric", "warning", "a3-02:10187", pair("0", "1"))
          + ","
          + alert("LinkwatchLinkAsymmetric", "warning", "a3-02:10187", pair("1", "0"))
          + ","
          + alert(
              "LinkwatchProbeFailing",
              "critical",
              "a3-02:10187",
              ",\"probe\":\"allreduce\",\"target\":\"0,1\"")
          + ","
          + alert("LinkwatchLinkAsymmetric", "warning", "a3-03:10187", pair("0", "1"))
          + "]";

  static String pair(String src, String dst) {
    return ",\"src\":\""
        + src
        + "\",\"dst\":\""
        + dst
        + "\",\"link\":\"SIO\",\"size_bytes\":\"16777216\"";
  }

  static String alert(String name, String severity, String instance, String more) {
    return "{\"labels\":{\"alertname\":\""
        + name
        + "\",\"severity\":\""
        + severity
        + "\",\"cluster\":\"east\",\"job\":\"linkwatch\",\"instance\":\""
        + instance
        + "\""
        + more
        + "},\"annotations\":{\"summary\":\""
        + name
        + " on "
        + instance
        + "\",\"runbook\":\"README.md#"
        + name.toLowerCase()
        + "\"}}";
  }

  /** Every alert notified, as "alertname instance [src->dst|probe]", after the groups settle. */
  static Set<String> notified(AlertmanagerServer am, WebhookReceiver hook, int expected)
      throws Exception {
    am.post(ALERTS);
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    Set<String> seen = new TreeSet<>();
    while (System.nanoTime() < end) {
      seen = describe(hook.alerts());
      if (seen.size() >= expected) {
        break;
      }
      Thread.sleep(300);
    }
    // Groups wait 1 s and flush every 2 s: give an inhibited alert time to show up if it would.
    Thread.sleep(5000);
    return describe(hook.alerts());
  }

  static Set<String> describe(List<JsonNode> alerts) {
    Set<String> out = new TreeSet<>();
    for (JsonNode a : alerts) {
      JsonNode l = a.get("labels");
      String what =
          l.has("src")
              ? l.get("src").asText() + "->" + l.get("dst").asText()
              : l.has("probe") ? l.get("probe").asText() : "";
      out.add(l.get("alertname").asText() + " " + l.get("instance").asText() + " " + what);
    }
    return out;
  }

  @Test
  void inhibitionRulesHoldBackWhatAnotherAlertOfTheHostCovers() throws Exception {
    try (WebhookReceiver hook = WebhookReceiver.start();
        AlertmanagerServer am =
            AlertmanagerServer.start(dir, AlertmanagerServer.liveConfig(hook.url(), true))) {
      assertThat(notified(am, hook, 5))
          .containsExactly(
              "LinkwatchAgentDown a3-01:10187 ",
              "LinkwatchLinkAsymmetric a3-02:10187 1->0",
              "LinkwatchLinkAsymmetric a3-03:10187 0->1",
              "LinkwatchLinkBelowFleet a3-02:10187 0->1",
              "LinkwatchProbeFailing a3-02:10187 allreduce");
      // One notification per host and route: grouped by cluster and instance, critical alerts
      // on their own route; a3-02's warnings (two link alerts) arrive together.
      Set<String> groups = new TreeSet<>();
      for (JsonNode n : hook.notifications()) {
        assertThat(n.get("groupLabels").get("cluster").asText()).isEqualTo("east");
        String instance = n.get("groupLabels").get("instance").asText();
        String severity = n.get("alerts").get(0).get("labels").get("severity").asText();
        assertThat(n.get("alerts"))
            .allSatisfy(
                a -> {
                  assertThat(a.get("labels").get("instance").asText()).isEqualTo(instance);
                  assertThat(a.get("labels").get("severity").asText()).isEqualTo(severity);
                });
        assertThat(n.get("status").asText()).isEqualTo("firing");
        assertThat(groups.add(instance + " " + severity)).as("one notification per group").isTrue();
      }
      assertThat(groups)
          .containsExactly(
              "a3-01:10187 critical",
              "a3-02:10187 critical",
              "a3-02:10187 warning",
              "a3-03:10187 warning");
    }
  }

  @Test
  void withoutTheInhibitionRulesEveryAlertIsNotified() throws Exception {
    try (WebhookReceiver hook = WebhookReceiver.start();
        AlertmanagerServer am =
            AlertmanagerServer.start(dir, AlertmanagerServer.liveConfig(hook.url(), false))) {
      assertThat(notified(am, hook, 7))
          .contains(
              "LinkwatchProbeFailing a3-01:10187 p2p", "LinkwatchLinkAsymmetric a3-02:10187 0->1")
          .hasSize(7);
    }
  }
}
