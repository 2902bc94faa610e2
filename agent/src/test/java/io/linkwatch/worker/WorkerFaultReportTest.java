package io.linkwatch.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.collective.AllreduceSettings;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.TopologySettings;
import io.linkwatch.runtime.ToleratedFailure;
import io.linkwatch.runtime.topology.CommandTopologySource;
import io.linkwatch.testing.SimFace;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a run reports when the driver misbehaves, with real worker processes on the sim: the call
 * that hung or crashed is named, a failure before the targets are known lands on the known targets,
 * and cleanup or inventory calls that fail are reported without failing the run.
 */
class WorkerFaultReportTest {
  private static final List<String> KNOWN = List.of("0->1", "1->0");
  private final WorkerProcess worker = new WorkerProcess(List.of("-Xmx128m"));

  private static WorkerRequest request(String probe, ProbeSettings settings) {
    return request(SimFace.ASCEND, probe, settings);
  }

  private static WorkerRequest request(SimFace face, String probe, ProbeSettings settings) {
    return new WorkerRequest(
        probe, settings, face.backend(), HostPaths.system(), CommandTopologySource.DEFAULT_COMMAND);
  }

  private static WorkerRequest p2p() {
    return p2p(SimFace.ASCEND);
  }

  private static WorkerRequest p2p(SimFace face) {
    return request(face, "p2p", new P2pSettings(List.of(1L << 20), 0, 2, face.firstPairs()));
  }

  @AfterEach
  void noFaults() {
    SimFaults.clear();
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aHangNamesTheCallAndItsDeviceOnEveryKnownTarget(SimFace face) {
    String sync = face.symbol(SimFace.Call.SYNCHRONIZE_STREAM);
    SimFaults.set("hang " + sync);

    ProbeRun run = worker.run(p2p(face), Duration.ofSeconds(4), KNOWN);

    assertThat(run.targets()).extracting(TargetResult::target).containsExactlyElementsOf(KNOWN);
    assertThat(run.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.TIMEOUT);
              assertThat(t.error())
                  .matches(
                      "timeout in "
                          + sync
                          + " \\(device 0\\) after [0-3]\\.\\d s: the"
                          + " run passed its deadline of 4s and the worker was killed");
              assertThat(t.call()).isEqualTo(sync);
            });
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aCrashNamesTheCallAndKeepsTheWorkersLastStderr(SimFace face) {
    String copy = face.symbol(SimFace.Call.PEER_COPY_ASYNC);
    SimFaults.set("crash " + copy);

    ProbeRun run = worker.run(p2p(face), Duration.ofSeconds(30), KNOWN);

    assertThat(run.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error())
                  .startsWith("worker died with signal 6 (exit status 134) in " + copy)
                  .contains("; last stderr: ")
                  .endsWith("linkwatch-sim: injected crash in " + copy);
              assertThat(t.call()).isEqualTo(copy);
            });
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aFailedInitLandsOnTheKnownTargetsNotOnTheProbesName(SimFace face) {
    String init = face.symbol(SimFace.Call.INIT);
    int code = face.deviceErrorCode();
    SimFaults.set("fail " + init + " " + code);

    ProbeRun known = worker.run(p2p(face), Duration.ofSeconds(30), KNOWN);
    ProbeRun firstEver = worker.run(p2p(face), Duration.ofSeconds(30), List.of());

    assertThat(known.targets()).extracting(TargetResult::target).containsExactlyElementsOf(KNOWN);
    assertThat(known.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error()).startsWith(init + " returned " + code);
              assertThat(t.call()).isEqualTo(init);
            });
    // With no target ever known, the probe's name is the only place the error can go.
    assertThat(firstEver.targets()).extracting(TargetResult::target).containsExactly("p2p");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aDeviceCountThatFailsLandsOnTheKnownTargets(SimFace face) {
    String count = face.symbol(SimFace.Call.DEVICE_COUNT);
    SimFaults.set("fail " + count + " 3");

    ProbeRun run = worker.run(p2p(face), Duration.ofSeconds(30), KNOWN);

    assertThat(run.targets()).extracting(TargetResult::target).containsExactlyElementsOf(KNOWN);
    assertThat(run.targets())
        .allSatisfy(t -> assertThat(t.error()).startsWith(count + " returned 3"));
  }

  @Test
  void aFailingResetIsToleratedButReported() {
    SimFaults.set("fail aclrtResetDevice 507899", "fail aclFinalize 100000");

    ProbeRun run = worker.run(p2p(), Duration.ofSeconds(30), KNOWN);

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::call)
        .contains("aclrtResetDevice", "aclFinalize");
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::detail)
        .anySatisfy(d -> assertThat(d).startsWith("aclrtResetDevice(0) returned 507899: "));
  }

  /** CUDA has no finalize: what can fail at the end is the release of a primary context. */
  @Test
  void aFailingContextReleaseIsToleratedButReported() {
    SimFaults.set("fail cuDevicePrimaryCtxRelease_v2 999");

    ProbeRun run = worker.run(p2p(SimFace.CUDA), Duration.ofSeconds(30), KNOWN);

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::detail)
        .anySatisfy(
            d -> assertThat(d).startsWith("cuDevicePrimaryCtxRelease_v2(0) returned 999: "));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aFailingCommunicatorDestroyIsToleratedAndTheFiguresStand(SimFace face) {
    String destroy = face == SimFace.ASCEND ? "HcclCommDestroy" : "ncclCommDestroy";
    SimFaults.set("fail " + destroy + " 4");

    ProbeRun run =
        worker.run(
            request(face, "allreduce", new AllreduceSettings(List.of(1024L), 1, 3, List.of(0, 1))),
            Duration.ofSeconds(60),
            List.of());

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(run.targets().get(0).measurements()).isNotEmpty();
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::detail)
        .anySatisfy(d -> assertThat(d).startsWith(destroy + " (device 0) returned 4"));
  }

  @Test
  void inventoryWithAStandInSaysSo() {
    SimFaults.set("fail aclrtGetSocName 100000", "fail aclrtGetPhyDevIdByLogicDevId 107000");

    ProbeRun run =
        worker.run(
            request("topology", TopologySettings.DEFAULTS), Duration.ofSeconds(30), List.of());

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(
            run.targets().stream()
                .flatMap(t -> t.measurements().stream())
                .filter(DeviceInfo.class::isInstance)
                .map(DeviceInfo.class::cast))
        .isNotEmpty()
        .allSatisfy(
            d -> {
              assertThat(d.name()).isEqualTo("unknown");
              assertThat(d.physicalId()).isNull();
            });
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::call)
        .contains("aclrtGetSocName", "aclrtGetPhyDevIdByLogicDevId");
  }
}
