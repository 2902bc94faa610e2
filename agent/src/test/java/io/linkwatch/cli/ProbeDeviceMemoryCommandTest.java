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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code linkwatch probe device-memory} and {@code probe topology} in child processes, on each sim
 * face narrowed to its first two devices.
 */
class ProbeDeviceMemoryCommandTest {
  @TempDir Path dir;

  private static Map<String, String> env(SimFace face, String... pairs) {
    Map<String, String> env = new HashMap<>(face.firstTwoDevices());
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void corruptedCopiesAreADataMismatch(SimFace face) throws Exception {
    Path control = dir.resolve("control");
    Files.writeString(control, "corrupt " + face.symbol(SimFace.Call.LOCAL_COPY_ASYNC) + "\n");

    CliProcess.Result r =
        CliProcess.run(
            env(face, "LINKWATCH_SIM_CONTROL", control.toString()),
            dir,
            "probe",
            "device-memory",
            "--backend",
            face.backend().id(),
            "--json",
            "--size",
            "1MiB",
            "--warmup",
            "0",
            "--iterations",
            "2");

    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(1);
    JsonNode run = JsonTrees.MAPPER.readTree(r.stdout());
    assertThat(run.get("targets")).hasSize(2);
    for (JsonNode t : run.get("targets")) {
      assertThat(t.get("result").asText()).isEqualTo("error");
      assertThat(t.get("error").asText())
          .startsWith("device_memory " + t.get("target").asText() + " 1MiB: data mismatch")
          .contains("crc32");
      assertThat(t.get("measurements")).isEmpty();
    }
    assertThat(r.stderr())
        .contains("linkwatch: device_memory dev0: device_memory dev0 1MiB: data mismatch");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void tableOnTheSim(SimFace face) throws Exception {
    CliProcess.Result r =
        CliProcess.run(
            env(face),
            dir,
            "probe",
            "device-memory",
            "--backend",
            face.backend().id(),
            "--size",
            "64MiB",
            "--devices",
            "1",
            "--warmup",
            "0",
            "--iterations",
            "3");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Matcher row =
        Pattern.compile("device +size +GB/s +ms\ndev1 +64MiB +(\\d+\\.\\d) +(\\d\\.\\d{3})\n")
            .matcher(r.stdout());
    assertThat(row.matches()).as(r.stdout()).isTrue();
    // The profile's local bandwidth less its per-copy latency, which 64 MiB does not hide.
    assertThat(Double.parseDouble(row.group(1)) * 1e9)
        .isBetween(face.localBandwidth() * 0.7, face.localBandwidth() * 1.05);
    assertThat(Double.parseDouble(row.group(2)))
        .isCloseTo((64 << 20) / (Double.parseDouble(row.group(1)) * 1e9) * 1e3, within(0.002));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void usageErrors(SimFace face) throws Exception {
    String backend = face.backend().id();
    CliProcess.Result twice =
        CliProcess.run(
            env(face), dir, "probe", "device-memory", "--backend", backend, "--devices", "0,0");
    assertThat(twice.exitCode()).isEqualTo(2);
    assertThat(twice.stderr()).isEqualTo("linkwatch: --devices: device 0 is listed twice\n");

    CliProcess.Result negative =
        CliProcess.run(
            env(face), dir, "probe", "device-memory", "--backend", backend, "--devices", "-1");
    assertThat(negative.exitCode()).isEqualTo(2);
    assertThat(negative.stderr())
        .isEqualTo("linkwatch: --devices: '-1' is not a device id: it must not be negative\n");

    String size = ByteSize.format(face.memoryBytes() + (1L << 30));
    CliProcess.Result tooBig =
        CliProcess.run(
            env(face), dir, "probe", "device-memory", "--backend", backend, "--size", size);
    assertThat(tooBig.exitCode()).isEqualTo(2);
    assertThat(tooBig.stderr())
        .isEqualTo(
            "linkwatch: --size: "
                + size
                + " is more than device 0's memory ("
                + ByteSize.format(face.memoryBytes())
                + ")\n");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void probeTopologyTable(SimFace face) throws Exception {
    CliProcess.Result r =
        CliProcess.run(env(face), dir, "probe", "topology", "--backend", face.backend().id());

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    String device = face.deviceName() + " " + ByteSize.format(face.memoryBytes());
    assertThat(r.stdout())
        .isEqualTo(
            String.format(
                """
                target  found
                links   0->1 %1$s
                links   1->0 %1$s
                dev0    dev0 %2$s phy %3$d
                dev1    dev1 %2$s phy %4$d
                """,
                face.link01(), device, face.physicalId(0), face.physicalId(1)));
  }
}
