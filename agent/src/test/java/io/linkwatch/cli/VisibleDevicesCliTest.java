package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One-shot commands under ASCEND_RT_VISIBLE_DEVICES, which the sim honours as documented: only the
 * listed host devices exist, renumbered from 0, with their physical ids. Labels stay the runtime's
 * numbers; DCMI and npu-smi, which number devices as the host does, are asked about the host's. And
 * the exit hold for device logs, which the commands skip unless the operator set it.
 */
class VisibleDevicesCliTest {
  private static final String VISIBLE = "ASCEND_RT_VISIBLE_DEVICES";

  @TempDir Path dir;

  private CliProcess.Result run(Map<String, String> env, String... args) throws Exception {
    return CliProcess.run(env, dir, args);
  }

  private Map<String, String> eightDevices(String visible, String control) throws Exception {
    Path file = dir.resolve("control-" + System.nanoTime());
    Files.writeString(file, control);
    return Map.of(
        VISIBLE,
        visible,
        "LINKWATCH_SIM_PROFILE",
        CliProcess.profile("8x910b-hccs.profile").toString(),
        "LINKWATCH_SIM_CONTROL",
        file.toString());
  }

  /** The A3 profile's dies are phy 2 and 3: with "1" the second die is the only device, 0. */
  @Test
  void theSecondDieAloneIsDeviceZeroWithItsPhysicalId() throws Exception {
    CliProcess.Result topo = run(Map.of(VISIBLE, "1"), "topo", "--backend", "sim");

    assertThat(topo.exitCode()).as(topo.stderr()).isZero();
    assertThat(topo.stdout())
        .containsPattern("(?m)^0\\s+Ascend910_9382\\s+3\\s+64GiB")
        .doesNotContainPattern("(?m)^1\\s+Ascend910_9382");

    CliProcess.Result p2p = run(Map.of(VISIBLE, "1"), "probe", "p2p", "--backend", "sim");
    assertThat(p2p.stderr()).contains("p2p needs two devices, found 1");
    CliProcess.Result allreduce =
        run(Map.of(VISIBLE, "1"), "probe", "allreduce", "--backend", "sim");
    assertThat(allreduce.stderr()).contains("allreduce needs two devices, found 1");
  }

  /** Host devices 1 and 3 of eight: a pair 0->1 over their link, and an HCCL group of both. */
  @Test
  void aRemappedPairIsMeasuredUnderTheRuntimesNumbers() throws Exception {
    Map<String, String> env = eightDevices("1,3", "");

    CliProcess.Result p2p = run(env, "probe", "p2p", "--backend", "sim");
    assertThat(p2p.exitCode()).as(p2p.stderr()).isZero();
    assertThat(p2p.stdout()).contains("0->1 GB/s").contains("link 0->1: HCCS");

    CliProcess.Result allreduce = run(env, "probe", "allreduce", "--backend", "sim");
    assertThat(allreduce.exitCode()).as(allreduce.stderr()).isZero();
    assertThat(allreduce.stdout()).contains("devices 0,1").containsPattern("256MiB\\s+\\S+ms");

    CliProcess.Result topo = run(env, "topo", "--backend", "sim");
    assertThat(topo.stdout())
        .containsPattern("(?m)^0\\s+Ascend910B3\\s+1\\s")
        .containsPattern("(?m)^1\\s+Ascend910B3\\s+3\\s");
  }

  /**
   * A job on host device 3 is on the runtime's device 1, and DCMI is asked about host device 3; a
   * job on host device 0, which this process does not see, keeps nobody from measuring. Asked under
   * the runtime's numbers instead, DCMI would call device 0 busy for the second job and miss the
   * first.
   */
  @Test
  void busyDevicesAreReadUnderTheHostsNumbers() throws Exception {
    CliProcess.Result busy =
        run(eightDevices("1,3", "busy 3 pid 4242 util 80\n"), "probe", "p2p", "--backend", "sim");
    assertThat(busy.exitCode()).as(busy.stderr()).isEqualTo(3);
    assertThat(busy.stderr()).contains("device 1 is busy: pid 4242").doesNotContain("device 0 is");

    CliProcess.Result elsewhere =
        run(eightDevices("1,3", "busy 0 pid 4242 util 80\n"), "probe", "p2p", "--backend", "sim");
    assertThat(elsewhere.exitCode()).as(elsewhere.stderr()).isZero();
    assertThat(elsewhere.stdout()).contains("link 0->1: HCCS");
  }
}
