package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.JavaProcess;
import io.linkwatch.testing.SimControl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linkwatch check --level quick} names the culprit on its first line, as a job's prolog
 * reads it: on the eight-device HCCS sim with the operator's row for the product (so a culprit
 * fails, exit 1), a slow device, then a healthy host.
 */
class CulpritCheckLiveTest {
  static final Path HCCS_PROFILE =
      Path.of("..", "native", "profiles", "8x910b-hccs.profile").toAbsolutePath();

  @TempDir Path dir;

  private JavaProcess.Result check(Path config, Path control) throws Exception {
    return JavaProcess.run(
        Map.of(
            "LINKWATCH_SIM_PROFILE", HCCS_PROFILE.toString(),
            "LINKWATCH_SIM_CONTROL", control.toString()),
        Duration.ofSeconds(120),
        "check",
        "--config",
        config.toString(),
        "--backend",
        "sim",
        // Nothing answers on port 1: the check runs as on a host without an agent.
        "--url",
        "http://127.0.0.1:1");
  }

  @Test
  void aSlowDeviceIsNamedOnTheFirstLineAndFailsTheCheck() throws Exception {
    Path config = dir.resolve("linkwatch.yaml");
    Files.writeString(
        config,
        """
        coordination:
          lock_file: ""
        expected:
          - {product: Ascend910B, link: HCCS, probe: p2p, min_size: 256MiB, floor_gbps: 40,
             warn_gbps: 45, source: this test's rack}
        """);
    Path control = dir.resolve("sim-control");
    List<String> slow = new ArrayList<>();
    for (int peer = 0; peer < 8; peer++) {
      if (peer != 3) {
        slow.add("link 3 " + peer + " scale 0.5");
        slow.add("link " + peer + " 3 scale 0.5");
      }
    }
    SimControl.write(control, slow.toArray(String[]::new));
    JavaProcess.Result bad = check(config, control);
    String first = bad.out().lines().findFirst().orElse("");
    assertThat(bad.exit()).as(bad.out() + bad.err()).isEqualTo(1);
    assertThat(first).startsWith("FAIL - device 3: LW-DEVICE-SLOW all 14 of its pairs low");

    Files.delete(control);
    JavaProcess.Result ok = check(config, control);
    assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
    assertThat(ok.out()).startsWith("OK - 8 devices, 56 p2p figures");
  }
}
