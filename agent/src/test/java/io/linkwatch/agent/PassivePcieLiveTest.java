package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.passive.pcie.AerSeverity;
import io.linkwatch.passive.pcie.SysfsPciTree;
import io.linkwatch.testing.AgentProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PCIe side of passive watching in a running agent: the sim's two A3 dies (PCI functions
 * 0000:01:00.0 and 0000:02:00.0, the addresses DCMI reports for them) behind a switch and a root
 * port in a fixture sysfs ({@code paths.sysfs}); a link that trains down and an AER error that the
 * kernel counts show on {@code /metrics} at the next read; the narrow hops are findings ({@code
 * LW-PCIE-WIDTH}, a switch port named once with both devices under it) and the devices' PCIe
 * health.
 */
class PassivePcieLiveTest {
  @TempDir Path dir;

  private static String firstLine(String url) throws Exception {
    return io.linkwatch.testing.JavaProcess.run(
            Map.of(), Duration.ofSeconds(60), "status", "--url", url)
        .out()
        .lines()
        .findFirst()
        .orElse("");
  }

  @Test
  void pcieHopsUpToTheRootPortAndTheirChangesShowOnMetrics() throws Exception {
    HostPaths sysfs =
        SysfsPciTree.builder()
            .rootPort("0000:00:01.0")
            .link("32.0 GT/s PCIe", 16)
            .aer()
            .bridge("0000:00:02.0")
            .link("32.0 GT/s PCIe", 16)
            .aer()
            .device("0000:01:00.0")
            .link("32.0 GT/s PCIe", 16)
            .aer()
            .at("0000:00:02.0")
            .device("0000:02:00.0")
            .link("32.0 GT/s PCIe", 16)
            .aer()
            .build(dir.resolve("fixture"));
    String config =
        "paths:\n  sysfs: "
            + sysfs.sysfs()
            + "\npassive:\n  interval: 1s\n  deadline: 900ms\nprobes:\n  topology: {enabled: false}\n";
    try (AgentProcess agent = AgentProcess.start(dir, AgentProcess.onlyProbes(config), Map.of())) {
      String hop = "device=\"0\",pci_address=\"0000:01:00.0\",role=\"device\"";
      String root = "device=\"0\",pci_address=\"0000:00:01.0\",role=\"root_port\"";
      agent.awaitMetrics(
          Duration.ofSeconds(60),
          "linkwatch_pcie_link_width{" + hop + "} 16.0",
          "linkwatch_pcie_link_speed_transfers_per_second{" + hop + "} 3.2E10",
          "linkwatch_pcie_link_width{device=\"0\",pci_address=\"0000:00:02.0\",role=\"bridge\"} 16.0",
          "linkwatch_pcie_link_width{" + root + "} 16.0",
          "linkwatch_pcie_aer_errors_total{" + root + ",severity=\"nonfatal\"} 0.0",
          "linkwatch_pcie_link_width{device=\"1\",pci_address=\"0000:02:00.0\",role=\"device\"}");

      Path dev0 =
          sysfs.sysfs().resolve("devices/pci0000:00/0000:00:01.0/0000:00:02.0/0000:01:00.0");
      Files.writeString(dev0.resolve("current_link_width"), "8\n");
      Files.writeString(dev0.resolve("current_link_speed"), "16.0 GT/s PCIe\n");
      Path rootDir = sysfs.sysfs().resolve("devices/pci0000:00/0000:00:01.0");
      Files.writeString(
          rootDir.resolve("aer_dev_nonfatal"),
          SysfsPciTree.aerText(AerSeverity.NONFATAL, Map.of("CmpltTO", 1L)));
      String metrics =
          agent.awaitMetrics(
              Duration.ofSeconds(30),
              "linkwatch_pcie_link_width{" + hop + "} 8.0",
              "linkwatch_pcie_link_speed_transfers_per_second{" + hop + "} 1.6E10",
              "linkwatch_pcie_aer_errors_total{" + root + ",severity=\"nonfatal\"} 1.0");
      assertThat(metrics).contains("linkwatch_pcie_link_max_width{" + hop + "} 16.0");
      assertThat(metrics)
          .contains("linkwatch_passive_read_success{device=\"0\",source=\"sysfs\"} 1.0");

      // The narrow hop is a finding: device 0's PCIe health warns, device 1's does not.
      String status = "http://127.0.0.1:" + agent.port();
      metrics =
          agent.awaitMetrics(
              Duration.ofSeconds(30),
              "linkwatch_finding{code=\"LW-PCIE-WIDTH\",subject=\"pcie 0000:01:00.0\"} 1.0",
              "linkwatch_device_health{device=\"0\",subsystem=\"pcie\"} 1.0");
      assertThat(metrics).contains("linkwatch_device_health{device=\"1\",subsystem=\"pcie\"} 0.0");
      assertThat(firstLine(status))
          .isEqualTo(
              "WARN - pcie 0000:01:00.0: LW-PCIE-WIDTH device 0's own function runs at x8, the…");
      // The switch port above both dies trains narrow too: one finding names it with both.
      Path bridge = sysfs.sysfs().resolve("devices/pci0000:00/0000:00:01.0/0000:00:02.0");
      Files.writeString(bridge.resolve("current_link_width"), "4\n");
      agent.awaitMetrics(
          Duration.ofSeconds(30),
          "linkwatch_finding{code=\"LW-PCIE-WIDTH\",subject=\"pcie 0000:00:02.0\"} 1.0",
          "linkwatch_device_health{device=\"1\",subsystem=\"pcie\"} 1.0");
      com.fasterxml.jackson.databind.JsonNode findings =
          io.linkwatch.testing.JsonTrees.MAPPER
              .readTree(agent.get("/api/v1/status").body())
              .get("findings");
      com.fasterxml.jackson.databind.JsonNode switchPort = null;
      for (com.fasterxml.jackson.databind.JsonNode f : findings) {
        if (f.get("subject").asText().equals("pcie 0000:00:02.0")) {
          switchPort = f;
        }
      }
      assertThat(switchPort).as(findings.toString()).isNotNull();
      assertThat(switchPort.get("evidence").asText())
          .startsWith(
              "bridge above devices 0, 1 runs at x4, the narrowest maximum on the path x16");
      assertThat(switchPort.get("subsystem").asText()).isEqualTo("pcie");
      assertThat(switchPort.get("devices").toString()).isEqualTo("[0,1]");
      assertThat(switchPort.get("action").asText()).startsWith("reseat the device, riser");
    }
  }
}
