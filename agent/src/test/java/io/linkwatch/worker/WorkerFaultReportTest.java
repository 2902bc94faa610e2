package io.linkwatch.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.AllreduceSettings;
import io.linkwatch.probe.DevicePair;
import io.linkwatch.probe.P2pSettings;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.TopologySettings;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.CommandTopologySource;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.ToleratedFailure;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a run reports when the driver misbehaves, with real worker processes on the sim: the call
 * that hung or crashed is named, a failure before the targets are known lands on the known targets,
 * and cleanup or inventory calls that fail are reported without failing the run.
 */
class WorkerFaultReportTest {
  private static final List<String> KNOWN = List.of("0->1", "1->0");
  private final WorkerProcess worker = new WorkerProcess(List.of("-Xmx128m"));

  private static WorkerRequest request(String probe, ProbeSettings settings) {
    return new WorkerRequest(
        probe, settings, Backend.SIM, HostPaths.system(), CommandTopologySource.DEFAULT_COMMAND);
  }

  private static WorkerRequest p2p() {
    return request(
        "p2p",
        new P2pSettings(
            List.of(1L << 20), 0, 2, List.of(new DevicePair(0, 1), new DevicePair(1, 0))));
  }

  @AfterEach
  void noFaults() {
    SimFaults.clear();
  }

  @Test
  void aHangNamesTheCallAndItsDeviceOnEveryKnownTarget() {
    SimFaults.set("hang aclrtSynchronizeStream");

    ProbeRun run = worker.run(p2p(), Duration.ofSeconds(4), KNOWN);

    assertThat(run.targets()).extracting(TargetResult::target).containsExactlyElementsOf(KNOWN);
    assertThat(run.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.TIMEOUT);
              assertThat(t.error())
                  .matches(
                      "timeout in aclrtSynchronizeStream \\(device 0\\) after [0-3]\\.\\d s: the"
                          + " run passed its deadline of 4s and the worker was killed");
              assertThat(t.call()).isEqualTo("aclrtSynchronizeStream");
            });
  }

  @Test
  void aCrashNamesTheCallAndKeepsTheWorkersLastStderr() {
    SimFaults.set("crash aclrtMemcpyAsync");

    ProbeRun run = worker.run(p2p(), Duration.ofSeconds(30), KNOWN);

    assertThat(run.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error())
                  .startsWith("worker died with signal 6 (exit status 134) in aclrtMemcpyAsync")
                  .contains("; last stderr: ")
                  .endsWith("linkwatch-sim: injected crash in aclrtMemcpyAsync");
              assertThat(t.call()).isEqualTo("aclrtMemcpyAsync");
            });
  }

  @Test
  void aFailedInitLandsOnTheKnownTargetsNotOnTheProbesName() {
    SimFaults.set("fail aclInit 507899");

    ProbeRun known = worker.run(p2p(), Duration.ofSeconds(30), KNOWN);
    ProbeRun firstEver = worker.run(p2p(), Duration.ofSeconds(30), List.of());

    assertThat(known.targets()).extracting(TargetResult::target).containsExactlyElementsOf(KNOWN);
    assertThat(known.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error()).startsWith("aclInit returned 507899");
              assertThat(t.call()).isEqualTo("aclInit");
            });
    // With no target ever known, the probe's name is the only place the error can go.
    assertThat(firstEver.targets()).extracting(TargetResult::target).containsExactly("p2p");
  }

  @Test
  void aDeviceCountThatFailsLandsOnTheKnownTargets() {
    SimFaults.set("fail aclrtGetDeviceCount 507033");

    ProbeRun run = worker.run(p2p(), Duration.ofSeconds(30), KNOWN);

    assertThat(run.targets()).extracting(TargetResult::target).containsExactlyElementsOf(KNOWN);
    assertThat(run.targets())
        .allSatisfy(t -> assertThat(t.error()).startsWith("aclrtGetDeviceCount returned 507033"));
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

  @Test
  void aFailingCommunicatorDestroyIsToleratedAndTheFiguresStand() {
    SimFaults.set("fail HcclCommDestroy 4");

    ProbeRun run =
        worker.run(
            request("allreduce", new AllreduceSettings(List.of(1024L), 1, 3, List.of())),
            Duration.ofSeconds(60),
            List.of());

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(run.targets().get(0).measurements()).isNotEmpty();
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::detail)
        .anySatisfy(d -> assertThat(d).startsWith("HcclCommDestroy (device 0) returned 4"));
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
              assertThat(d.physicalId()).isEmpty();
            });
    assertThat(run.tolerated())
        .extracting(ToleratedFailure::call)
        .contains("aclrtGetSocName", "aclrtGetPhyDevIdByLogicDevId");
  }
}
