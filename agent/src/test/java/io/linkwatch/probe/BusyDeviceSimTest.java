package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.activity.ActivityGate;
import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
import io.linkwatch.host.Memory;
import io.linkwatch.probe.devicememory.DeviceMemorySettings;
import io.linkwatch.probe.p2p.DevicePair;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.testing.SimFace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gate around real probe runs on the sim, its devices made busy through the control file's
 * {@code busy} lines (which also cost a probe half the modeled bandwidth, like a real job's
 * traffic).
 */
class BusyDeviceSimTest {
  static final P2pSettings P2P =
      new P2pSettings(List.of(64L << 20), 2, 8, SimFace.ASCEND.firstPairs());
  static final String SIM_NPU_SMI =
      Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "npu-smi").toString();

  @AfterEach
  void clearFaults() {
    SimFaults.clear();
  }

  static BusyPolicy policy(BusyPolicy.Mode mode, String npuSmi, Duration checkTimeout) {
    return new BusyPolicy(
        mode,
        Duration.ofSeconds(30),
        0.10,
        1L << 30,
        BusyPolicy.Unknown.BUSY,
        Duration.ofHours(24),
        checkTimeout,
        npuSmi);
  }

  static BusyPolicy skip() {
    return policy(BusyPolicy.Mode.SKIP, SIM_NPU_SMI, Duration.ofSeconds(5));
  }

  static ProbeRun run(DeviceRuntime runtime, BusyPolicy policy, ProbeSettings settings) {
    return run(runtime, policy, settings, Map.of());
  }

  static ProbeRun run(
      DeviceRuntime runtime, BusyPolicy policy, ProbeSettings settings, Map<Integer, Long> base) {
    ActivityGate gate = ActivityGate.standard(policy, runtime, base);
    ProbeRun run =
        settings
            .newProbe()
            .run(
                new ProbeContext(
                    runtime,
                    r -> Topology.NONE,
                    HostPaths.system(),
                    Progress.NONE,
                    gate,
                    Set.of()));
    return run.withDevices(gate.activity());
  }

  static TargetResult target(ProbeRun run, String name) {
    return run.targets().stream().filter(t -> t.target().equals(name)).findFirst().orElseThrow();
  }

  static double gbps(TargetResult t) {
    return ((P2pBandwidth) t.measurements().get(0)).bytesPerSecond() / 1e9;
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void idleDevicesAreMeasuredAndTheProbesOwnProcessDoesNotCount(SimFace face) {
    try (DeviceRuntime runtime = face.open()) {
      ProbeRun run = run(runtime, skip(), P2P);
      assertThat(run.targets()).extracting(TargetResult::outcome).containsOnly(Outcome.SUCCESS);
      // DCMI and NVML list this JVM on both devices once it holds them; it is never "another
      // process".
      assertThat(run.devices())
          .extracting(DeviceActivity::device, DeviceActivity::busy, DeviceActivity::source)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(0, false, face.monitorSource()),
              org.assertj.core.groups.Tuple.tuple(1, false, face.monitorSource()));
      assertThat(run.devices()).allSatisfy(a -> assertThat(a.otherProcesses()).isEmpty());
    }
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aBusyDeviceIsLeftAloneAndTargetsWithoutItStillRun(SimFace face) {
    SimFaults.set("busy 1 pid 4242 util 80 memory 2147483648");
    try (DeviceRuntime runtime = face.open()) {
      ProbeRun p2p = run(runtime, skip(), P2P);
      assertThat(p2p.targets())
          .allSatisfy(
              t -> {
                assertThat(t.outcome()).isEqualTo(Outcome.SKIPPED_DEVICE_BUSY);
                assertThat(t.measurements()).isEmpty();
                assertThat(t.error()).startsWith("device 1 is busy: pid 4242 holds 2GiB");
              });
      assertThat(p2p.devices())
          .filteredOn(a -> a.device() == 1)
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.busy()).isTrue();
                assertThat(a.reasons())
                    .extracting(BusyReason::kind)
                    .contains(BusyReason.Kind.PROCESS, BusyReason.Kind.UTILIZATION);
                assertThat(a.utilization()).containsEntry(face.busyUtilizationKind(), 0.8);
              });

      ProbeRun local =
          run(runtime, skip(), new DeviceMemorySettings(64L << 20, 1, 4, List.of(0, 1)));
      assertThat(target(local, "dev0").outcome()).isEqualTo(Outcome.SUCCESS);
      assertThat(target(local, "dev1").outcome()).isEqualTo(Outcome.SKIPPED_DEVICE_BUSY);
      assertThat(runtime.liveAllocations()).contains(0L);
    }
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void withoutTheGateABusyDeviceGivesALowFigure(SimFace face) {
    try (DeviceRuntime runtime = face.open()) {
      double idle = gbps(target(run(runtime, skip(), P2P), "0->1"));
      SimFaults.set("busy 1 pid 4242 util 80");
      ProbeRun ignored =
          run(runtime, policy(BusyPolicy.Mode.IGNORE, SIM_NPU_SMI, Duration.ofSeconds(5)), P2P);
      double contended = gbps(target(ignored, "0->1"));
      // The failure the gate prevents is real: the contended figure is far below the idle one.
      assertThat(contended / idle).isLessThan(0.8);
      // ... and the check still says what the figure was measured next to.
      assertThat(ignored.devices()).filteredOn(DeviceActivity::busy).isNotEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aJobThatStartsDuringTheRunDiscardsItsFigures(SimFace face) {
    AtomicBoolean started = new AtomicBoolean();
    try (DeviceRuntime sim = face.open()) {
      DeviceRuntime runtime =
          new ForwardingRuntime(sim) {
            @Override
            public void copyAsync(
                Memory dst,
                long dstOffset,
                Memory src,
                long srcOffset,
                long bytes,
                DeviceStream s) {
              if (started.compareAndSet(false, true)) {
                SimFaults.set("busy 1 pid 5151 util 90");
              }
              super.copyAsync(dst, dstOffset, src, srcOffset, bytes, s);
            }
          };
      P2pSettings one =
          new P2pSettings(List.of(64L << 20), 2, 8, List.of(DevicePair.parse("0->1")));
      ProbeRun run = run(runtime, skip(), one);
      TargetResult t = target(run, "0->1");
      assertThat(t.outcome()).isEqualTo(Outcome.DISCARDED_DEVICE_BUSY);
      assertThat(t.measurements()).isEmpty();
      assertThat(t.error())
          .startsWith("device 1 became busy during the run: pid 5151")
          .endsWith("its figures were discarded");
    }
  }

  @Test
  void withoutDcmiNpuSmiTellsTheProcesses() {
    SimFaults.set(
        "fail dcmi_get_device_resource_info -8013", "busy 1 pid 4242 util 80 memory 2147483648");
    try (DeviceRuntime runtime = SimRuntime.open()) {
      ProbeRun run = run(runtime, skip(), P2P);
      assertThat(run.targets())
          .extracting(TargetResult::outcome)
          .containsOnly(Outcome.SKIPPED_DEVICE_BUSY);
      DeviceActivity one =
          run.devices().stream().filter(a -> a.device() == 1).findFirst().orElseThrow();
      assertThat(one.source()).isEqualTo("npu-smi");
      assertThat(one.why()).contains("pid 4242 holds 2GiB");
    }
  }

  /** Without DCMI or NVML (and on Ascend without npu-smi), device memory decides. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void withoutTheMonitorDeviceMemoryAgainstTheIdleBaselineDecides(SimFace face) {
    BusyPolicy noNpuSmi =
        policy(BusyPolicy.Mode.SKIP, "/nonexistent/npu-smi", Duration.ofSeconds(5));
    String noMonitor =
        "fail " + face.symbol(SimFace.Call.MONITOR_INIT) + " " + face.monitorNotSupportedCode();
    SimFaults.set(noMonitor);
    try (DeviceRuntime runtime = face.open()) {
      ProbeRun idle = run(runtime, noNpuSmi, P2P);
      assertThat(idle.targets()).extracting(TargetResult::outcome).containsOnly(Outcome.SUCCESS);
      Map<Integer, Long> baselines = new java.util.HashMap<>();
      idle.devices().forEach(a -> baselines.merge(a.device(), a.memoryUsedBytes(), Math::min));
      assertThat(idle.devices()).extracting(DeviceActivity::source).containsOnly("memory");

      SimFaults.set(noMonitor, "busy 1 memory 8589934592");
      ProbeRun busy = run(runtime, noNpuSmi, P2P, baselines);
      assertThat(busy.targets())
          .extracting(TargetResult::outcome)
          .containsOnly(Outcome.SKIPPED_DEVICE_BUSY);
      assertThat(target(busy, "0->1").error()).contains("of device memory in use");
    }
  }

  /**
   * A hung process-list call costs one timeout and is not asked again; the next source answers:
   * npu-smi on Ascend (which sees the job), device memory on NVIDIA.
   */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aHungMonitorCallCostsOneTimeoutAndTheNextSourceAnswers(SimFace face) {
    SimFaults.set("hang " + face.symbol(SimFace.Call.MONITOR_PROCESSES), "busy 1 pid 4242");
    try (DeviceRuntime runtime = face.open()) {
      long started = System.nanoTime();
      ProbeRun run =
          run(runtime, policy(BusyPolicy.Mode.SKIP, SIM_NPU_SMI, Duration.ofSeconds(1)), P2P);
      double seconds = (System.nanoTime() - started) / 1e9;
      if (face == SimFace.ASCEND) {
        assertThat(run.targets())
            .extracting(TargetResult::outcome)
            .containsOnly(Outcome.SKIPPED_DEVICE_BUSY);
        assertThat(run.devices()).extracting(DeviceActivity::source).containsOnly("npu-smi");
      } else {
        assertThat(run.devices()).extracting(DeviceActivity::source).containsOnly("memory");
      }
      // One timeout, then the library is not asked again in this process.
      assertThat(seconds).isLessThan(5);
    } finally {
      SimFaults.clear();
    }
  }
}
