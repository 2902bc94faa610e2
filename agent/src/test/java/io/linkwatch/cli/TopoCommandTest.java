package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.SimFace;
import io.linkwatch.util.ByteSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code linkwatch topo} end to end in child processes against the sim: the runtime's own answers
 * on both faces (the CUDA face narrowed to its first two GPUs unless eight are the point), the
 * npu-smi fallback on Ascend, where it applies.
 */
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

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void defaultProfileFromTheRuntime(SimFace face) throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            face.firstTwoDevices(), dir, "topo", "--backend", face.backend().id(), "--json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode report = JsonTrees.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo(face.linkTypeSource());
    assertThat(report.get("devices").asInt()).isEqualTo(2);
    assertThat(links(report)).isEqualTo(Map.of("0->1", face.link01(), "1->0", face.link01()));
    JsonNode inventory = report.get("inventory");
    assertThat(inventory).hasSize(2);
    for (int d = 0; d < 2; d++) {
      assertThat(inventory.get(d).get("device").asInt()).isEqualTo(d);
      assertThat(inventory.get(d).get("name").asText()).isEqualTo(face.deviceName());
      // Numbers, and null when unknown: a program compares them as numbers.
      assertThat(inventory.get(d).get("physical_id").isInt()).isTrue();
      assertThat(inventory.get(d).get("physical_id").asInt()).isEqualTo(face.physicalId(d));
      assertThat(inventory.get(d).get("memory_total_bytes").asLong()).isEqualTo(face.memoryBytes());
      // The sim's devices have no PCI function in this machine's sysfs (nor a bus id, on Ascend).
      assertThat(inventory.get(d).get("numa_node").isNull()).isTrue();
    }
    assertThat(report.get("measured").isNull()).isTrue();
    assertThat(report.get("errors")).isEmpty();
    // The source is in the output; no log line repeats it (one-shot commands log warnings only).
    assertThat(r.stderr()).isEmpty();
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
    JsonNode report = JsonTrees.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo("npu-smi");
    assertThat(links(report)).isEqualTo(Map.of("0->1", "SIO", "1->0", "SIO"));
    assertThat(report.get("inventory")).hasSize(2);
    assertThat(r.stderr()).isEmpty();
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
    JsonNode report = JsonTrees.MAPPER.readTree(r.stdout());
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
    JsonNode report = JsonTrees.MAPPER.readTree(r.stdout());
    Map<String, String> links = links(report);
    assertThat(links).hasSize(56).allSatisfy((pair, link) -> assertThat(link).isEqualTo("HCCS"));
    assertThat(report.get("inventory")).hasSize(8);
    assertThat(report.get("inventory").get(0).get("name").asText()).isEqualTo("Ascend910B3");
    assertThat(report.get("inventory").get(0).get("cpu_affinity").asText()).isEqualTo("0-23");
    assertThat(report.get("inventory").get(7).get("cpu_affinity").asText()).isEqualTo("72-95");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void eightDevicesFromTheRuntime(SimFace face) throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            Map.of(
                "LINKWATCH_SIM_PROFILE", CliProcess.profile(face.eightDeviceProfile()).toString()),
            dir,
            "topo",
            "--backend",
            face.backend().id(),
            "--json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode report = JsonTrees.MAPPER.readTree(r.stdout());
    assertThat(report.get("source").asText()).isEqualTo(face.linkTypeSource());
    assertThat(links(report))
        .hasSize(56)
        .containsOnlyKeys(allPairs(8))
        .allSatisfy((pair, link) -> assertThat(link).isEqualTo(face.eightDeviceLink()));
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

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void measureAddsP2pAndLocalWithRatios(SimFace face) throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            face.firstTwoDevices(),
            dir,
            "topo",
            "--backend",
            face.backend().id(),
            "--json",
            "--measure",
            "--size",
            "64MiB",
            "--warmup",
            "1",
            "--iterations",
            "3");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode measured = JsonTrees.MAPPER.readTree(r.stdout()).get("measured");
    assertThat(measured.get("size_bytes").asLong()).isEqualTo(64L << 20);
    assertThat(measured.get("device_memory")).hasSize(2);
    JsonNode p2p = measured.get("p2p");
    assertThat(p2p).hasSize(2);
    // The model's time for 64 MiB over link 0-1: its latency plus the bytes at its bandwidth.
    double expected = (64 << 20) / (face.linkLatency() + (64 << 20) / face.linkBandwidth());
    for (JsonNode link : p2p) {
      assertThat(link.get("link").asText()).isEqualTo(face.link01());
      double local =
          measured
              .get("device_memory")
              .get(link.get("src").asInt())
              .get("bytes_per_second")
              .asDouble();
      assertThat(link.get("ratio_to_local").asDouble())
          .isCloseTo(link.get("bytes_per_second").asDouble() / local, within(1e-9));
      assertThat(link.get("bytes_per_second").asDouble()).isBetween(expected * 0.9, expected * 1.1);
    }
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void measureTableShowsTheMatrices(SimFace face) throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            face.firstTwoDevices(),
            dir,
            "topo",
            "--backend",
            face.backend().id(),
            "--measure",
            "--size",
            "16MiB",
            "--warmup",
            "0",
            "--iterations",
            "2");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    String d0 = face.matrixName(0);
    String d1 = face.matrixName(1);
    assertThat(r.stdout())
        .startsWith("Topology from " + face.linkTypeSource() + "\n")
        .containsPattern("(?m)^ +" + d0 + " +" + d1 + "$")
        .containsPattern("(?m)^" + d0 + " +X +" + face.link01() + "$")
        .containsPattern("(?m)^" + d1 + " +" + face.link01() + " +X$")
        .containsPattern("(?m)^device +name +phy_id +memory +numa_node +cpu_affinity$")
        .containsPattern(
            "(?m)^0 +"
                + face.deviceName()
                + " +"
                + face.physicalId(0)
                + " +"
                + ByteSize.human(face.memoryBytes())
                + " +- +-$")
        .contains("Copy bandwidth GB/s, 16MiB (diagonal: device-local)")
        .contains("Ratio to the source device's local bandwidth");
  }
}
