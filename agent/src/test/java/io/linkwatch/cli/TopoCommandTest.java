package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.util.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code linkwatch topo} end to end in child processes against the sim. */
class TopoCommandTest {
  @TempDir Path dir;

  private String npuSmi() {
    return CliProcess.nativeBuild().resolve("npu-smi") + " info -t topo";
  }

  private Path control(String text) throws Exception {
    Path file = dir.resolve("control");
    Files.writeString(file, text);
    return file;
  }

  private static Map<String, String> links(JsonNode report) {
    Map<String, String> links = new HashMap<>();
    report
        .get("links")
        .forEach(l -> links.put(l.get("src") + "->" + l.get("dst"), l.get("link").asText()));
    return links;
  }

  @Test
  void defaultProfileFromTheRuntime() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), dir, "topo", "--backend", "sim", "--json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode report = Json.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo("aclrtGetDevicesTopo");
    assertThat(report.get("devices").asInt()).isEqualTo(2);
    assertThat(links(report)).isEqualTo(Map.of("0->1", "SIO", "1->0", "SIO"));
    JsonNode inventory = report.get("inventory");
    assertThat(inventory).hasSize(2);
    for (int d = 0; d < 2; d++) {
      assertThat(inventory.get(d).get("device").asInt()).isEqualTo(d);
      assertThat(inventory.get(d).get("name").asText()).isEqualTo("Ascend910_9382");
      assertThat(inventory.get(d).get("physicalId").asText()).isEqualTo(String.valueOf(2 + d));
      assertThat(inventory.get(d).get("memoryTotalBytes").asLong()).isEqualTo(64L << 30);
      assertThat(inventory.get(d).get("numaNode").asText()).isEmpty();
    }
    assertThat(report.get("measured").isNull()).isTrue();
    assertThat(report.get("errors")).isEmpty();
    assertThat(r.stderr()).contains("Topology of 2 device(s) from aclrtGetDevicesTopo");
  }

  @Test
  void fallsBackToTheTopologyCommandWhenTheRuntimeSaysNotSupported() throws Exception {
    Path control = control("fail aclrtGetDevicesTopo 207000\n");

    CliProcess.Result r =
        CliProcess.run(
            Map.of("LINKWATCH_SIM_CONTROL", control.toString()),
            dir,
            "topo",
            "--backend",
            "sim",
            "--json",
            "--topology-command",
            npuSmi());

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode report = Json.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo("npu-smi");
    assertThat(links(report)).isEqualTo(Map.of("0->1", "SIO", "1->0", "SIO"));
    assertThat(report.get("inventory")).hasSize(2);
    assertThat(r.stderr()).contains("from npu-smi");
  }

  @Test
  void noSourceAnswersFailsTheLinksButKeepsTheInventory() throws Exception {
    Path control = control("fail aclrtGetDevicesTopo 207000\n");

    CliProcess.Result r =
        CliProcess.run(
            Map.of("LINKWATCH_SIM_CONTROL", control.toString()),
            dir,
            "topo",
            "--backend",
            "sim",
            "--json",
            "--topology-command",
            dir.resolve("no-such-npu-smi").toString());

    assertThat(r.exitCode()).isEqualTo(1);
    JsonNode report = Json.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo("none");
    assertThat(report.get("links")).isEmpty();
    assertThat(report.get("inventory")).hasSize(2);
    assertThat(report.get("errors").get(0).asText())
        .isEqualTo(
            "topology links: no topology source answered (aclrtGetDevicesTopo, then the topology"
                + " command)");
    assertThat(r.stderr()).contains("linkwatch: topology links: no topology source answered");
  }

  @Test
  void eightDevicesAllHccsWithAffinityFromNpuSmi() throws Exception {
    Path control = control("fail aclrtGetDevicesTopo 207000\n");
    Map<String, String> env =
        Map.of(
            "LINKWATCH_SIM_PROFILE",
            CliProcess.profile("8x910b-hccs.profile").toString(),
            "LINKWATCH_SIM_CONTROL",
            control.toString());

    CliProcess.Result r =
        CliProcess.run(
            env, dir, "topo", "--backend", "sim", "--json", "--topology-command", npuSmi());

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode report = Json.MAPPER.readTree(r.stdout());
    Map<String, String> links = links(report);
    assertThat(links).hasSize(56).allSatisfy((pair, link) -> assertThat(link).isEqualTo("HCCS"));
    assertThat(report.get("inventory")).hasSize(8);
    assertThat(report.get("inventory").get(0).get("name").asText()).isEqualTo("Ascend910B3");
    assertThat(report.get("inventory").get(0).get("cpuAffinity").asText()).isEqualTo("0-23");
    assertThat(report.get("inventory").get(7).get("cpuAffinity").asText()).isEqualTo("72-95");
  }

  @Test
  void eightDevicesFromTheRuntime() throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            Map.of("LINKWATCH_SIM_PROFILE", CliProcess.profile("8x910b-hccs.profile").toString()),
            dir,
            "topo",
            "--backend",
            "sim",
            "--json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode report = Json.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo("aclrtGetDevicesTopo");
    assertThat(links(report))
        .hasSize(56)
        .containsOnlyKeys(allPairs(8))
        .doesNotContainValue("SIO")
        .allSatisfy((pair, link) -> assertThat(link).isEqualTo("HCCS"));
  }

  private static String[] allPairs(int n) {
    String[] pairs = new String[n * (n - 1)];
    int i = 0;
    for (int s = 0; s < n; s++) {
      for (int d = 0; d < n; d++) {
        if (s != d) {
          pairs[i++] = s + "->" + d;
        }
      }
    }
    return pairs;
  }

  @Test
  void measureAddsP2pAndLocalWithRatios() throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            Map.of(),
            dir,
            "topo",
            "--backend",
            "sim",
            "--json",
            "--measure",
            "--size",
            "64MiB",
            "--warmup",
            "1",
            "--iterations",
            "3");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode measured = Json.MAPPER.readTree(r.stdout()).get("measured");
    assertThat(measured.get("sizeBytes").asLong()).isEqualTo(64L << 20);
    assertThat(measured.get("deviceMemory")).hasSize(2);
    JsonNode p2p = measured.get("p2p");
    assertThat(p2p).hasSize(2);
    for (JsonNode link : p2p) {
      assertThat(link.get("link").asText()).isEqualTo("SIO");
      // Model: 64 MiB over SIO ~119 GB/s (README), local ~560 GB/s at 64 MiB (0.01 ms latency).
      double local =
          measured
              .get("deviceMemory")
              .get(link.get("src").asInt())
              .get("bytesPerSecond")
              .asDouble();
      assertThat(link.get("ratioToLocal").asDouble())
          .isCloseTo(link.get("bytesPerSecond").asDouble() / local, within(1e-9));
      assertThat(link.get("bytesPerSecond").asDouble()).isBetween(107e9, 131e9);
    }
  }

  @Test
  void measureTableShowsTheMatrices() throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            Map.of(),
            dir,
            "topo",
            "--backend",
            "sim",
            "--measure",
            "--size",
            "16MiB",
            "--warmup",
            "0",
            "--iterations",
            "2");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .startsWith("Topology from aclrtGetDevicesTopo\n")
        .contains("NPU0  X     SIO\nNPU1  SIO   X\n")
        .contains("device  name            phy_id  memory  numa_node  cpu_affinity\n")
        .contains("0       Ascend910_9382  2       64GiB   -          -\n")
        .contains("Copy bandwidth GB/s, 16MiB (diagonal: device-local)")
        .contains("Ratio to the source device's local bandwidth");
  }
}
