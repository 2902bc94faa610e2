package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.passive.nic.HccnTool;
import io.linkwatch.runtime.Backend;
import io.linkwatch.testing.SimControl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NPU ports' read rounds with the DCMI source off (the devices come from the topology's
 * inventory) and a device whose tool calls hang every round: the round runs out of time, and the
 * next one starts where it stopped, so the hang delays the other devices but starves none.
 */
class HccnRoundTest {
  @TempDir Path dir;

  @Test
  void aDeviceThatHangsEveryRoundStarvesNoOtherDevice() throws Exception {
    Path control = dir.resolve("control");
    SimControl.write(control, "");
    Path real = Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool");
    // the stand-in, slowed to 40 ms a call, and device 0's calls hang past the timeout
    Path tool = dir.resolve("hccn_tool");
    Files.writeString(
        tool,
        "#!/bin/sh\n"
            + "if [ \"$2\" = 0 ]; then sleep 10; fi\n"
            + "sleep 0.04\n"
            + "exec "
            + real
            + " \"$@\"\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    PassiveConfig config =
        new PassiveConfig(
            true,
            Duration.ofSeconds(2),
            Duration.ofMillis(1200),
            Set.of(PassiveSource.HCCN_TOOL),
            tool,
            Duration.ofMillis(300),
            true);
    PassiveStore store = new PassiveStore(Clock.systemUTC());
    Map<Integer, String> inventory =
        IntStream.range(0, 8).boxed().collect(Collectors.toMap(d -> d, d -> "Ascend910B3"));
    store.expectPorts(new PortExpectations(List.of(), () -> inventory));
    Map<String, String> env = new HashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("LINKWATCH_SIM_CONTROL", control.toString());
    env.put("LINKWATCH_SIM_PROFILE", WatcherProcessSimTest.HCCS_PROFILE.toString());
    HccnTool hccn = new HccnTool(tool, config.hccnToolTimeout(), env);
    PassiveWatcher watcher =
        new PassiveWatcher(config, Backend.SIM, null, null, null, hccn, store, new ActiveProbes());

    Set<String> read = new TreeSet<>();
    Set<String> firstRound = null;
    for (int round = 0; round < 15 && read.size() < 7; round++) {
      watcher.round();
      Set<String> now =
          store.nicPorts().stream().map(n -> n.port().nic()).collect(Collectors.toSet());
      if (firstRound == null) {
        firstRound = now;
      }
      read.addAll(now);
      // only the hung device's call is blamed; one cut short by the round's deadline is not
      assertThat(store.states())
          .filteredOn(st -> st.source() == PassiveSource.HCCN_TOOL && st.device() != 0)
          .allSatisfy(st -> assertThat(st.failedCall()).as(st.error()).isNull());
      assertThat(store.states())
          .filteredOn(st -> st.source() == PassiveSource.HCCN_TOOL && st.device() == 0)
          .allSatisfy(st -> assertThat(st.failedCall()).isIn("hccn_tool -link", null));
    }
    // the hang costs the round its time: one round alone does not reach every device (on a loaded
    // machine it may reach none: the rounds after it carry on where it ran out)
    assertThat(firstRound).hasSizeLessThan(7);
    assertThat(read)
        .as("every device but the hung one read within a few rounds")
        .containsExactly("npu1", "npu2", "npu3", "npu4", "npu5", "npu6", "npu7");
    watcher.close();
  }

  @Test
  void theOrderWrapsAroundFromTheDeviceNotReached() {
    assertThat(PassiveWatcher.startingAt(List.of(0, 1, 2, 3), 2)).containsExactly(2, 3, 0, 1);
    assertThat(PassiveWatcher.startingAt(List.of(0, 1, 2, 3), null)).containsExactly(0, 1, 2, 3);
    assertThat(PassiveWatcher.startingAt(List.of(0, 1, 2, 3), 9)).containsExactly(0, 1, 2, 3);
  }
}
