package io.linkwatch.agent;

import static io.linkwatch.testing.Exposition.value;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.StatusLine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running agent on the eight-NPU sim reading each NPU's own RoCE port through the sim's {@code
 * hccn_tool} stand-in, while a job holds every device and sends traffic: the ports' series, a port
 * taken down failing the verdict by name and coming back (its flap counted), and a hung {@code
 * hccn_tool} named while {@code /metrics} and the library's reads go on.
 */
class HccnToolLiveTest {
  static final Path HCCS_PROFILE =
      Path.of("..", "native", "profiles", "8x910b-hccs.profile").toAbsolutePath();

  @TempDir Path dir;

  private static String await(String url, String prefix) throws Exception {
    return StatusLine.await(url, prefix, Duration.ofSeconds(60));
  }

  /** The job: every device busy, each sending 1 GB/s, with {@code more} lines after it. */
  private static String[] job(String... more) {
    List<String> lines = new ArrayList<>();
    for (int d = 0; d < 8; d++) {
      lines.add("busy " + d + " pid 4242 util 90 traffic 1GB/s");
    }
    lines.addAll(List.of(more));
    return lines.toArray(String[]::new);
  }

  /** The status document's passive devices once they mention {@code text}, or at 30 s. */
  private static String awaitDevices(AgentProcess agent, String text) throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String devices = "";
    while (System.nanoTime() < until) {
      devices =
          JsonTrees.MAPPER
              .readTree(agent.get("/api/v1/status").body())
              .get("passive")
              .get("devices")
              .toString();
      if (devices.contains(text)) {
        break;
      }
      Thread.sleep(500);
    }
    return devices;
  }

  @Test
  void npuPortsAreReadWhileAJobRunsAndAPortDownOrAHungToolIsNamed() throws Exception {
    String tool = Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool").toString();
    String config =
        AgentProcess.onlyProbes(
            """
            passive:
              interval: 2s
              deadline: 1800ms
              hccn_tool:
                command: %s
                timeout: 600ms
            probes:
              topology:
                every: 1h
                deadline: 30s
            """
                .formatted(tool));
    try (AgentProcess agent =
        AgentProcess.start(dir, config, Map.of("LINKWATCH_SIM_PROFILE", HCCS_PROFILE.toString()))) {
      agent.faults(job());
      String url = "http://127.0.0.1:" + agent.port();
      String port3 = "{device=\"3\",nic=\"npu3\",port=\"0\"}";
      String up3 = "linkwatch_nic_up{device=\"3\",link_layer=\"Ethernet\",nic=\"npu3\",port=\"0\"}";
      String metrics =
          agent.awaitMetrics(
              Duration.ofSeconds(60),
              up3 + " 1.0",
              "linkwatch_nic_speed_bytes_per_second" + port3 + " 5.0E10",
              "linkwatch_nic_link_ups_total" + port3 + " 1.0",
              "linkwatch_nic_net_health{device=\"3\",nic=\"npu3\",port=\"0\",state=\"success\"} 1.0",
              "linkwatch_nic_net_health{device=\"3\",nic=\"npu3\",port=\"0\",state=\"socket_fail\"}"
                  + " 0.0",
              "linkwatch_nic_optical_rx_power_watts{device=\"3\",lane=\"2\",nic=\"npu3\",port=\"0\"}"
                  + " 0.00102",
              "linkwatch_nic_errors_total{device=\"3\",kind=\"roce_rx_err_pkt\",nic=\"npu3\","
                  + "port=\"0\"} 0.0",
              "linkwatch_passive_read_success{device=\"7\",source=\"hccn_tool\"} 1.0");
      assertThat(metrics)
          .contains(
              "linkwatch_nic_info{address=\"192.168.100.13\",device=\"3\",link_layer=\"Ethernet\","
                  + "lldp_port=\"400GE1/0/4\",lldp_system=\"sim-leaf-01\",netdev=\"\",nic=\"npu3\","
                  + "phys_state=\"\",port=\"0\",source=\"hccn_tool\",state=\"ACTIVE\"} 1");
      // a reading the port cannot give has no series, never a -1
      assertThat(metrics.lines().filter(l -> l.startsWith("linkwatch_nic_")))
          .isNotEmpty()
          .noneMatch(l -> l.endsWith(" -1.0"));
      // the job's traffic goes out through the ports too
      double sent = value(metrics, "linkwatch_nic_transmit_bytes_total" + port3);
      Thread.sleep(4000);
      assertThat(value(agent.metrics(), "linkwatch_nic_transmit_bytes_total" + port3))
          .isGreaterThan(sent + 1e9);
      assertThat(await(url, "OK - ")).startsWith("OK - ");

      // an error storm counts, and a port taken down fails the verdict by its name
      agent.faults(job("nic 3 down", "nic 5 errors roce_new_pkt_rty 500"));
      assertThat(await(url, "FAIL - "))
          .startsWith("FAIL - nic npu3 port 0: LW-NIC-DOWN down (DOWN) after being up");
      metrics = agent.awaitMetrics(Duration.ofSeconds(30), up3 + " 0.0");
      assertThat(metrics)
          .doesNotContain("linkwatch_nic_speed_bytes_per_second" + port3)
          .contains("linkwatch_nic_was_up" + port3 + " 1.0");
      Thread.sleep(3000);
      assertThat(
              value(
                  agent.metrics(),
                  "linkwatch_nic_errors_total{device=\"5\",kind=\"roce_new_pkt_rty\",nic=\"npu5\","
                      + "port=\"0\"}"))
          .isGreaterThan(500);
      JsonNode ports =
          JsonTrees.MAPPER
              .readTree(agent.get("/api/v1/status").body())
              .get("passive")
              .get("nic_ports");
      assertThat(ports).hasSize(8);
      JsonNode npu3 = ports.get(3);
      assertThat(npu3.get("nic").asText()).isEqualTo("npu3");
      assertThat(npu3.get("source").asText()).isEqualTo("hccn_tool");
      assertThat(npu3.get("device").asInt()).isEqualTo(3);
      assertThat(npu3.get("health").asText()).isEqualTo("Success");
      assertThat(npu3.get("lldp_system").isNull()).isTrue(); // no neighbour while down

      // back up: the verdict clears and the flap is counted
      agent.faults(job());
      assertThat(await(url, "OK - ")).startsWith("OK - ");
      agent.awaitMetrics(
          Duration.ofSeconds(30), up3 + " 1.0", "linkwatch_nic_link_ups_total" + port3 + " 2.0");

      // counters and address come through DCMI, which answers them: the tool's -stat and -ip are
      // never called (broken here, the reads still succeed), and the counters carry DCMI's own
      // names (roce_err_psn, where -stat says roce_out_of_order); the health is the tool's
      agent.faults(
          job(
              "fail hccn_tool:-stat 1",
              "fail hccn_tool:-ip 1",
              "nic 2 errors roce_out_of_order 500",
              "nic 2 health Unreachable"));
      String psn2 =
          "linkwatch_nic_errors_total{device=\"2\",kind=\"roce_err_psn\",nic=\"npu2\",port=\"0\"}";
      metrics =
          agent.awaitMetrics(
              Duration.ofSeconds(30),
              "linkwatch_nic_net_health{device=\"2\",nic=\"npu2\",port=\"0\",state=\"unreachable\"}"
                  + " 1.0");
      // 500 a second: more than 500 once a read a second or more after the line counted it; the
      // watcher reads on its own interval, so wait for that read rather than for a fixed time.
      long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      metrics = agent.metrics();
      while (value(metrics, psn2) <= 500 && System.nanoTime() < until) {
        Thread.sleep(500);
        metrics = agent.metrics();
      }
      assertThat(value(metrics, psn2)).isGreaterThan(500);
      assertThat(metrics)
          .doesNotContain("kind=\"roce_out_of_order\"")
          .contains(
              "linkwatch_passive_read_success{device=\"2\",source=\"hccn_tool\"} 1.0",
              "address=\"192.168.100.12\"")
          .doesNotContain("linkwatch_passive_failed_call_info{call=\"hccn_tool -stat\"");
      agent.faults(job());
      agent.awaitMetrics(
          Duration.ofSeconds(30),
          "linkwatch_nic_net_health{device=\"2\",nic=\"npu2\",port=\"0\",state=\"success\"} 1.0");

      // a hung tool: the call is named, the ports' series go, /metrics and DCMI's reads go on
      // (the round under way when the fault came may name a later device first: wait for the
      // first full round, which meets the hang on device 0)
      agent.faults(job("hang hccn_tool:-link"));
      String hung = "UNKNOWN - dev0 hccn_tool read: LW-READ-FAILED timeout in hccn_tool -link";
      assertThat(await(url, hung)).startsWith(hung);
      metrics =
          agent.awaitMetrics(
              Duration.ofSeconds(30),
              "linkwatch_passive_failed_call_info{call=\"hccn_tool -link\",device=\"0\","
                  + "source=\"hccn_tool\"} 1");
      // the devices the round had no time left for are not read, and not blamed on the call
      assertThat(awaitDevices(agent, "not read: the read round's deadline had passed"))
          .contains("not read: the read round's deadline had passed");
      long before = System.nanoTime();
      metrics = agent.metrics();
      assertThat((System.nanoTime() - before) / 1e9)
          .as("a scrape while hccn_tool hangs")
          .isLessThan(5);
      assertThat(metrics)
          .doesNotContain(up3)
          .contains("linkwatch_passive_read_success{device=\"0\",source=\"dcmi\"} 1.0");
      double dcmiReads =
          value(metrics, "linkwatch_passive_reads_total{result=\"success\",source=\"dcmi\"}");
      Thread.sleep(4000);
      assertThat(
              value(
                  agent.metrics(),
                  "linkwatch_passive_reads_total{result=\"success\",source=\"dcmi\"}"))
          .isGreaterThan(dcmiReads);

      agent.faults(job());
      agent.awaitMetrics(Duration.ofSeconds(30), up3 + " 1.0");
      assertThat(await(url, "OK - ")).startsWith("OK - ");
    }
  }
}
