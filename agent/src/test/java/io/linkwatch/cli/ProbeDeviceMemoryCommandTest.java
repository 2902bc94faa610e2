package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.util.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code linkwatch probe device-memory} and {@code probe topology} in child processes. */
class ProbeDeviceMemoryCommandTest {
  @TempDir Path dir;

  @Test
  void corruptedCopiesAreADataMismatch() throws Exception {
    Path control = dir.resolve("control");
    Files.writeString(control, "corrupt aclrtMemcpyAsync\n");

    CliProcess.Result r =
        CliProcess.run(
            Map.of("LINKWATCH_SIM_CONTROL", control.toString()),
            dir,
            "probe",
            "device-memory",
            "--backend",
            "sim",
            "--json",
            "--size",
            "1MiB",
            "--warmup",
            "0",
            "--iterations",
            "2");

    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(1);
    JsonNode run = Json.MAPPER.readTree(r.stdout());
    assertThat(run.get("targets")).hasSize(2);
    for (JsonNode t : run.get("targets")) {
      assertThat(t.get("outcome").asText()).isEqualTo("ERROR");
      assertThat(t.get("error").asText())
          .startsWith("device_memory " + t.get("target").asText() + " 1MiB: data mismatch")
          .contains("crc32");
      assertThat(t.get("measurements")).isEmpty();
    }
    assertThat(r.stderr())
        .contains("linkwatch: device_memory dev0: device_memory dev0 1MiB: data mismatch");
  }

  @Test
  void tableOnTheSim() throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            Map.of(),
            dir,
            "probe",
            "device-memory",
            "--backend",
            "sim",
            "--size",
            "64MiB",
            "--devices",
            "1",
            "--warmup",
            "0",
            "--iterations",
            "3");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .matches("(?s)device  size   GB/s   ms\ndev1    64MiB  5\\d\\d\\.\\d  0\\.1\\d\\d\n");
  }

  @Test
  void usageErrors() throws Exception {
    CliProcess.Result twice =
        CliProcess.run(
            Map.of(), dir, "probe", "device-memory", "--backend", "sim", "--devices", "0,0");
    assertThat(twice.exitCode()).isEqualTo(2);
    assertThat(twice.stderr()).isEqualTo("linkwatch: --devices: device 0 is listed twice\n");

    CliProcess.Result negative =
        CliProcess.run(
            Map.of(), dir, "probe", "device-memory", "--backend", "sim", "--devices", "-1");
    assertThat(negative.exitCode()).isEqualTo(2);
    assertThat(negative.stderr())
        .isEqualTo("linkwatch: --devices: '-1' is not a device id: it must not be negative\n");

    CliProcess.Result tooBig =
        CliProcess.run(
            Map.of(), dir, "probe", "device-memory", "--backend", "sim", "--size", "65GiB");
    assertThat(tooBig.exitCode()).isEqualTo(2);
    assertThat(tooBig.stderr())
        .isEqualTo("linkwatch: --size: 65GiB is more than device 0's memory (64GiB)\n");
  }

  @Test
  void probeTopologyTable() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), dir, "probe", "topology", "--backend", "sim");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            """
            target  found
            links   0->1 SIO
            links   1->0 SIO
            dev0    dev0 Ascend910_9382 64GiB phy 2
            dev1    dev1 Ascend910_9382 64GiB phy 3
            """);
  }
}
