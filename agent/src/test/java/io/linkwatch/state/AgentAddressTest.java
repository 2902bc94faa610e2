package io.linkwatch.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentAddressTest {
  @TempDir Path dir;

  @Test
  void theRunningAgentsAddressIsFoundAndGoesWithIt() {
    Path lock = dir.resolve("probes.lock");
    assertThat(AgentAddress.running(lock)).isEmpty();
    AgentAddress.write(lock, "http://127.0.0.1:43117");
    assertThat(AgentAddress.running(lock)).contains("http://127.0.0.1:43117");
    AgentAddress.remove(lock);
    assertThat(AgentAddress.running(lock)).isEmpty();
  }

  /** An agent that was killed left its file: its process is gone, so the file is not believed. */
  @Test
  void aDeadAgentsAddressIsNotBelieved() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path lock = dir.resolve("probes.lock");
    Files.writeString(dir.resolve("agent.url"), "http://127.0.0.1:43117 " + gone.pid() + "\n");
    assertThat(AgentAddress.running(lock)).isEmpty();
    // Another agent's file is not removed by this process.
    AgentAddress.remove(lock);
    assertThat(dir.resolve("agent.url")).exists();
  }

  @Test
  void wildcardAddressesAreAskedOnLoopbackAndOthersWhereTheyListen() {
    assertThat(AgentAddress.url(false, "0.0.0.0", 10187)).isEqualTo("http://127.0.0.1:10187");
    assertThat(AgentAddress.url(true, "", 10187)).isEqualTo("https://127.0.0.1:10187");
    assertThat(AgentAddress.url(false, "10.1.2.3", 9000)).isEqualTo("http://10.1.2.3:9000");
    assertThat(AgentAddress.url(false, "fd00::5", 9000)).isEqualTo("http://[fd00::5]:9000");
  }

  @Test
  void noLockDirectoryNoFile() {
    AgentAddress.write(dir.resolve("missing/probes.lock"), "http://127.0.0.1:1");
    assertThat(dir.resolve("missing")).doesNotExist();
  }

  /**
   * The backend and, on a sim, its own settings ride below the address, for a check beside the
   * agent; an address file of an earlier agent (one line) still reads, with neither.
   */
  @Test
  void theBackendAndTheSimsSettingsAreRecordedForACheckBesideTheAgent() throws Exception {
    Path lock = dir.resolve("probes.lock");
    java.util.Map<String, String> env =
        java.util.Map.of(
            "LINKWATCH_SIM_CONTROL", "/tmp/x.ctl",
            "LINKWATCH_SIM_PROFILE", "/p/8x910b-hccs.profile",
            "HOME", "/root");
    AgentAddress.write(lock, "http://127.0.0.1:10187", io.linkwatch.runtime.Backend.SIM, env);
    AgentAddress.Running sim = AgentAddress.runningAgent(lock).orElseThrow();
    assertThat(sim.url()).isEqualTo("http://127.0.0.1:10187");
    assertThat(sim.backend()).contains(io.linkwatch.runtime.Backend.SIM);
    assertThat(sim.simEnvironment())
        .containsOnly(
            java.util.Map.entry("LINKWATCH_SIM_CONTROL", "/tmp/x.ctl"),
            java.util.Map.entry("LINKWATCH_SIM_PROFILE", "/p/8x910b-hccs.profile"));

    // A real device's agent records its backend and none of the environment.
    AgentAddress.write(lock, "http://127.0.0.1:10187", io.linkwatch.runtime.Backend.ASCEND, env);
    AgentAddress.Running ascend = AgentAddress.runningAgent(lock).orElseThrow();
    assertThat(ascend.backend()).contains(io.linkwatch.runtime.Backend.ASCEND);
    assertThat(ascend.simEnvironment()).isEmpty();
    assertThat(Files.readString(dir.resolve("agent.url"))).doesNotContain("HOME", "SIM");

    Files.writeString(
        dir.resolve("agent.url"), "http://127.0.0.1:43117 " + ProcessHandle.current().pid() + "\n");
    AgentAddress.Running old = AgentAddress.runningAgent(lock).orElseThrow();
    assertThat(old.url()).isEqualTo("http://127.0.0.1:43117");
    assertThat(old.backend()).isEmpty();
    assertThat(old.simEnvironment()).isEmpty();
  }
}
