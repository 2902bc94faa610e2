package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.SimFace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One-shot commands under each face's visible-devices variable (ASCEND_RT_VISIBLE_DEVICES,
 * CUDA_VISIBLE_DEVICES), which the sim honours as documented: only the listed host devices exist,
 * renumbered from 0, with their physical ids. Labels stay the runtime's numbers; DCMI, NVML and
 * npu-smi, which number devices as the host does, are asked about the host's (on NVIDIA, found by
 * PCI bus id).
 */
class VisibleDevicesCliTest {
  /** Copies and collectives of this size: the pairing is the point, not the figures. */
  private static final String SIZE = "16MiB";

  @TempDir Path dir;

  private CliProcess.Result run(Map<String, String> env, String... args) throws Exception {
    return CliProcess.run(env, dir, args);
  }

  private Map<String, String> eightDevices(SimFace face, String visible, String control)
      throws Exception {
    Path file = dir.resolve("control-" + System.nanoTime());
    Files.writeString(file, control);
    return Map.of(
        face.visibleDevicesVariable(),
        visible,
        "LINKWATCH_SIM_PROFILE",
        CliProcess.profile(face.eightDeviceProfile()).toString(),
        "LINKWATCH_SIM_CONTROL",
        file.toString());
  }

  /** {@code probe p2p} on host devices 1 and 3 of eight, with {@code control} in the fault file. */
  private CliProcess.Result p2p(SimFace face, String control) throws Exception {
    return run(
        eightDevices(face, "1,3", control),
        "probe",
        "p2p",
        "--backend",
        face.backend().id(),
        "--sizes",
        SIZE);
  }

  /**
   * With "1" the built-in profile's second device is the only one, device 0, with its physical id
   * (the A3's dies are phy 2 and 3).
   */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void theSecondDeviceAloneIsDeviceZeroWithItsPhysicalId(SimFace face) throws Exception {
    Map<String, String> env = Map.of(face.visibleDevicesVariable(), "1");
    String backend = face.backend().id();
    CliProcess.Result topo = run(env, "topo", "--backend", backend);

    assertThat(topo.exitCode()).as(topo.stderr()).isZero();
    String name = face.deviceName().replace(" ", "\\s");
    assertThat(topo.stdout())
        .containsPattern("(?m)^0\\s+" + name + "\\s+" + face.physicalId(1) + "\\s")
        .doesNotContainPattern("(?m)^1\\s+" + name);

    CliProcess.Result p2p = run(env, "probe", "p2p", "--backend", backend);
    assertThat(p2p.stderr()).contains("p2p needs two devices, found 1");
    CliProcess.Result allreduce = run(env, "probe", "allreduce", "--backend", backend);
    assertThat(allreduce.stderr()).contains("allreduce needs two devices, found 1");
  }

  /** Host devices 1 and 3 of eight: a pair 0->1 over their link, and a collective of both. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aRemappedPairIsMeasuredUnderTheRuntimesNumbers(SimFace face) throws Exception {
    Map<String, String> env = eightDevices(face, "1,3", "");
    String backend = face.backend().id();

    CliProcess.Result p2p = run(env, "probe", "p2p", "--backend", backend, "--sizes", SIZE);
    assertThat(p2p.exitCode()).as(p2p.stderr()).isZero();
    assertThat(p2p.stdout()).contains("0->1 GB/s").contains("link 0->1: " + face.eightDeviceLink());

    CliProcess.Result allreduce =
        run(env, "probe", "allreduce", "--backend", backend, "--sizes", SIZE);
    assertThat(allreduce.exitCode()).as(allreduce.stderr()).isZero();
    assertThat(allreduce.stdout())
        .contains("devices 0,1")
        .containsPattern(SIZE + "\\s+\\S+(ms|us)");

    CliProcess.Result topo = run(env, "topo", "--backend", backend);
    String name = face.eightDeviceName().replace(" ", "\\s");
    assertThat(topo.stdout())
        .containsPattern("(?m)^0\\s+" + name + "\\s+1\\s")
        .containsPattern("(?m)^1\\s+" + name + "\\s+3\\s");
  }

  /**
   * A job on host device 3 is on the runtime's device 1, and DCMI or NVML is asked about host
   * device 3; a job on host device 0, which this process does not see, keeps nobody from measuring.
   * Asked under the runtime's numbers instead, the library would call device 0 busy for the second
   * job and miss the first.
   */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void busyDevicesAreReadUnderTheHostsNumbers(SimFace face) throws Exception {
    CliProcess.Result busy = p2p(face, "busy 3 pid 4242 util 80\n");
    assertThat(busy.exitCode()).as(busy.stderr()).isEqualTo(3);
    assertThat(busy.stderr()).contains("device 1 is busy: pid 4242").doesNotContain("device 0 is");

    CliProcess.Result elsewhere = p2p(face, "busy 0 pid 4242 util 80\n");
    assertThat(elsewhere.exitCode()).as(elsewhere.stderr()).isZero();
    assertThat(elsewhere.stdout()).contains("link 0->1: " + face.eightDeviceLink());
  }
}
