package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JavaProcess;
import io.linkwatch.testing.JsonTrees;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The culprit named by a running agent on the eight-device HCCS sim: faults injected through the
 * control file, {@code linkwatch status} naming the device or the link on its first line within two
 * p2p rounds, with the action of the config's {@code finding_actions} row; the device named a
 * second time escalated to a failure with the row's stronger action; and nothing named once the
 * fault is gone. The product has no expected row, so the devices' own peers are the reference and a
 * culprit warns.
 */
class CulpritLiveTest {
  static final Path HCCS_PROFILE =
      Path.of("..", "native", "profiles", "8x910b-hccs.profile").toAbsolutePath();

  /** The probes last: {@link AgentProcess#onlyProbes} appends the rest of them. */
  static final String CONFIG =
      """
      finding_actions:
        - code: LW-DEVICE-SLOW
          action: reset the device, then watch two rounds
          escalate: {after: 2, within: 1h, state: fail, action: drain the node and replace the device}
      probes:
        p2p:
          every: 10s
          deadline: 8s
          warmup: 1
          iterations: 2
          sizes: [64MiB]
        topology:
          every: 1h
          deadline: 30s
      """;

  @TempDir Path dir;

  private static String firstLine(String url) throws Exception {
    JavaProcess.Result r =
        JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--url", url);
    return r.out().lines().findFirst().orElse("") + " (exit " + r.exit() + ")";
  }

  /** Polls the first line until it starts with {@code prefix}, for at most {@code limit}. */
  private static String await(String url, String prefix, Duration limit) throws Exception {
    long started = System.nanoTime();
    long until = started + limit.toNanos();
    String line = firstLine(url);
    while (!line.startsWith(prefix) && System.nanoTime() < until) {
      Thread.sleep(1000);
      line = firstLine(url);
    }
    // For the scenario table in docs/job-boundary.md: how long the naming took.
    System.out.printf(
        java.util.Locale.ROOT,
        "culprit: %.0f s to '%s'%n",
        (System.nanoTime() - started) / 1e9,
        line);
    return line;
  }

  /** Every link of {@code device}, both ways, at {@code scale} of its modeled bandwidth. */
  private static String[] slowDevice(int device, double scale) {
    List<String> lines = new ArrayList<>();
    for (int peer = 0; peer < 8; peer++) {
      if (peer != device) {
        lines.add("link " + device + " " + peer + " scale " + scale);
        lines.add("link " + peer + " " + device + " scale " + scale);
      }
    }
    return lines.toArray(String[]::new);
  }

  @Test
  void aSlowDeviceThenASlowLinkAreNamedAndAHealthyHostNamesNothing() throws Exception {
    try (AgentProcess agent =
        AgentProcess.start(
            dir,
            AgentProcess.onlyProbes(CONFIG),
            Map.of("LINKWATCH_SIM_PROFILE", HCCS_PROFILE.toString()))) {
      String url = "http://127.0.0.1:" + agent.port();
      agent.awaitMetrics(
          Duration.ofSeconds(90),
          "linkwatch_device_info{",
          "linkwatch_p2p_bandwidth_bytes_per_second{dst=\"7\",link_type=\"HCCS\",size_bytes=\"67108864\",src=\"6\"");
      assertThat(await(url, "OK - 8 devices", Duration.ofSeconds(30)))
          .startsWith("OK - 8 devices, 56 p2p figures");

      agent.faults(slowDevice(3, 0.5));
      // Two rounds name it; 120 s because on a loaded host a run that misses its deadline leaves
      // a round without the pattern, and naming starts over.
      String device = await(url, "WARN - device 3:", Duration.ofSeconds(120));
      assertThat(device).startsWith("WARN - device 3: LW-DEVICE-SLOW all 14 of its pairs low");
      // The same finding stands in the status, on /metrics and at the top of the page.
      String metric = "linkwatch_finding{code=\"LW-DEVICE-SLOW\",subject=\"device 3\"} 1.0";
      agent.awaitMetrics(Duration.ofSeconds(30), metric);
      JsonNode findings =
          JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body()).get("findings");
      assertThat(findings).hasSize(1);
      assertThat(findings.get(0).get("subject").asText()).isEqualTo("device 3");
      assertThat(findings.get(0).get("state").asText()).isEqualTo("WARN");
      assertThat(findings.get(0).get("count").asInt()).isPositive();
      assertThat(findings.get(0).get("first_seen").asText()).isNotEmpty();
      String page = agent.get("/").body();
      assertThat(page.indexOf("id=\"findings\""))
          .isPositive()
          .isLessThan(page.indexOf("Device to device (p2p)"));
      assertThat(page).contains("<td>device 3<td>LW-DEVICE-SLOW<td>");
      // What to do: the config's row, in the status, on the page and in the status output.
      assertThat(findings.get(0).get("action").asText())
          .isEqualTo("reset the device, then watch two rounds");
      assertThat(findings.get(0).get("escalated").asBoolean()).isFalse();
      assertThat(page).contains("<td class=\"action\">reset the device, then watch two rounds");
      assertThat(JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--url", url).out())
          .contains("action: reset the device, then watch two rounds");

      // One link, both ways: the link, not either of its devices.
      agent.faults("link 2 5 scale 0.4", "link 5 2 scale 0.4");
      String link = await(url, "WARN - link 2<->5:", Duration.ofSeconds(120));
      assertThat(link).startsWith("WARN - link 2<->5: LW-LINK-SLOW both directions low");
      // The agent's own judgement has let the device go: its next appearance is a repeat.
      String linkMetric = "linkwatch_finding{code=\"LW-LINK-SLOW\",subject=\"link 2<->5\"} 1.0";
      agent.awaitMetrics(Duration.ofSeconds(30), linkMetric);
      assertThat(agent.metrics()).doesNotContain(metric);

      // The device slow again within the row's hour: escalated to a failure, with its action.
      agent.faults(slowDevice(3, 0.5));
      String again = await(url, "FAIL - device 3:", Duration.ofSeconds(120));
      assertThat(again).startsWith("FAIL - device 3: LW-DEVICE-SLOW all 14 of its pairs low");
      assertThat(again).endsWith("(exit 1)");
      JsonNode escalated =
          JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body()).get("findings").get(0);
      assertThat(escalated.get("escalated").asBoolean()).isTrue();
      assertThat(escalated.get("repeats").asInt()).isEqualTo(2);
      assertThat(escalated.get("state").asText()).isEqualTo("FAIL");
      assertThat(JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--url", url).out())
          .contains("action: drain the node and replace the device");

      agent.faults();
      assertThat(await(url, "OK - 8 devices", Duration.ofSeconds(120)))
          .startsWith("OK - 8 devices");
      long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (agent.metrics().contains("linkwatch_finding{") && System.nanoTime() < until) {
        Thread.sleep(500);
      }
      assertThat(agent.metrics()).doesNotContain("linkwatch_finding{");
      assertThat(agent.get("/").body())
          .contains("<p id=\"findings\" class=\"none-found\">None: OK - 8 devices");
    }
  }
}
