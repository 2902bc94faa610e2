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
 * fails, exit 1), a slow device, one direction of a link, two devices slow to all outside their
 * PCIe switch (the tree read from a fixture sysfs), one link slow both ways, every link slow (the
 * host), then a healthy host.
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
        paths:
          sysfs: %s
        expected:
          - {product: Ascend910B, link: HCCS, probe: p2p, min_size: 256MiB, floor_gbps: 40,
             warn_gbps: 45, source: this test's rack}
        """
            .formatted(ScenarioLiveTest.pcieTree(dir).sysfs()));
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

    // One direction of a link, then devices 2 and 3 slow to all outside their PCIe switch (the
    // check reads the tree from the fixture sysfs itself): each named on the first line, exit 1.
    SimControl.write(control, "link 2 5 scale 0.5");
    JavaProcess.Result oneWay = check(config, control);
    assertThat(oneWay.exit()).as(oneWay.out() + oneWay.err()).isEqualTo(1);
    assertThat(oneWay.out()).startsWith("FAIL - link 2->5: LW-LINK-ONEWAY one direction low");
    List<String> behindSwitch = new ArrayList<>();
    for (int s = 0; s < 8; s++) {
      for (int d = 0; d < 8; d++) {
        if (s != d && (s == 2 || s == 3) != (d == 2 || d == 3)) {
          behindSwitch.add("link " + s + " " + d + " scale 0.5");
        }
      }
    }
    SimControl.write(control, behindSwitch.toArray(String[]::new));
    JavaProcess.Result pcie = check(config, control);
    assertThat(pcie.exit()).as(pcie.out() + pcie.err()).isEqualTo(1);
    assertThat(pcie.out())
        .startsWith("FAIL - pcie " + ScenarioLiveTest.SWITCH + ": LW-PCIE-SLOW devices 2, 3");

    // One link slow both ways, then every link slow: the link, then the host, not a device.
    SimControl.write(control, "link 2 5 scale 0.5", "link 5 2 scale 0.5");
    JavaProcess.Result bothWays = check(config, control);
    assertThat(bothWays.exit()).as(bothWays.out() + bothWays.err()).isEqualTo(1);
    assertThat(bothWays.out()).startsWith("FAIL - link 2<->5: LW-LINK-SLOW both directions low");
    List<String> everyLink = new ArrayList<>();
    for (int s = 0; s < 8; s++) {
      for (int d = 0; d < 8; d++) {
        if (s != d) {
          everyLink.add("link " + s + " " + d + " scale 0.5");
        }
      }
    }
    SimControl.write(control, everyLink.toArray(String[]::new));
    JavaProcess.Result hostWide = check(config, control);
    assertThat(hostWide.exit()).as(hostWide.out() + hostWide.err()).isEqualTo(1);
    assertThat(hostWide.out()).startsWith("FAIL - host: LW-HOST-WIDE all 56 pairs low");

    Files.delete(control);
    JavaProcess.Result ok = check(config, control);
    assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
    assertThat(ok.out()).startsWith("OK - 8 devices, 56 p2p figures");
  }
}
