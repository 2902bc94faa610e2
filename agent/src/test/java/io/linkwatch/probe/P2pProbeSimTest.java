package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.P2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.probe.topology.RuntimeTopologySource;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.AscendRuntime;
import io.linkwatch.testing.SimControl;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The p2p probe through the real JNA binding, against the sim's default Atlas 800T A3 profile. */
class P2pProbeSimTest {
  private SimControl control;

  @BeforeEach
  void noFaults() {
    control = SimControl.open();
  }

  @AfterEach
  void removeFaults() {
    control.close();
  }

  static ProbeRun run(ProbeSettings settings) {
    try (DeviceRuntime runtime = AscendRuntime.open(Backend.SIM)) {
      return settings
          .newProbe()
          .run(
              new ProbeContext(
                  runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
    }
  }

  static Map<String, Double> gbps(ProbeRun run) {
    return run.targets().stream()
        .flatMap(t -> t.measurements().stream())
        .map(P2pBandwidth.class::cast)
        .collect(
            Collectors.toMap(
                m -> m.src() + "->" + m.dst() + "@" + m.sizeBytes(),
                m -> m.bytesPerSecond() / 1e9));
  }

  /** Seed 000's table: 1 MB 4.7/4.4, 64 MB 116.5/116.3, 1024 MB 182.4/183.6 GB/s. */
  @Test
  void matchesTheFieldNotesWithinTenPercent() {
    ProbeRun small = run(new P2pSettings(List.of(1L << 20, 64L << 20), 2, 10, List.of()));
    ProbeRun large = run(new P2pSettings(List.of(1L << 30), 1, 3, List.of()));
    assertThat(small.allSucceeded()).isTrue();
    assertThat(large.allSucceeded()).isTrue();
    Map<String, Double> g = gbps(small);
    g.putAll(gbps(large));
    assertThat(g.get("0->1@1048576")).isCloseTo(4.7, within(0.47));
    assertThat(g.get("1->0@1048576")).isCloseTo(4.4, within(0.6));
    assertThat(g.get("0->1@67108864")).isCloseTo(116.5, within(11.65));
    assertThat(g.get("1->0@67108864")).isCloseTo(116.3, within(11.63));
    assertThat(g.get("0->1@1073741824")).isCloseTo(182.4, within(18.24));
    assertThat(g.get("1->0@1073741824")).isCloseTo(183.6, within(18.36));
    assertThat(small.targets()).extracting(TargetResult::target).containsExactly("0->1", "1->0");
    assertThat(small.targets().get(0).measurements())
        .allSatisfy(m -> assertThat(((P2pBandwidth) m).link()).isEqualTo("SIO"));
  }

  @Test
  void anInjectedCopyFailureFailsTheTargetWithTheRuntimesWords() {
    control.set("fail aclrtMemcpyAsync 507011");
    ProbeRun run = run(new P2pSettings(List.of(1L << 20), 1, 2, List.of()));
    assertThat(run.targets())
        .hasSize(2)
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error())
                  .startsWith("aclrtMemcpyAsync returned 507011: ")
                  .contains("injected fault");
              assertThat(t.measurements()).isEmpty();
            });
  }

  @Test
  void corruptedCopiesAreCaughtByTheDataCheck() {
    control.set("corrupt aclrtMemcpyAsync");
    ProbeRun run = run(new P2pSettings(List.of(1L << 20, 3L << 20), 0, 1, List.of()));
    assertThat(run.targets()).allSatisfy(t -> assertThat(t.error()).contains("data mismatch"));
  }

  @Test
  void oneBrokenDirectionLeavesTheOtherMeasured() {
    control.set("link 0 1 scale 0.5");
    Map<String, Double> g = gbps(run(new P2pSettings(List.of(64L << 20), 1, 5, List.of())));
    // The scale halves the link's bandwidth, not its latency, so 64 MiB copies lose a bit less.
    assertThat(g.get("0->1@67108864") / g.get("1->0@67108864")).isBetween(0.55, 0.68);
  }

  @Test
  void configuredPairsOnly() {
    ProbeRun run = run(new P2pSettings(List.of(1L << 20), 0, 1, List.of(new DevicePair(1, 0))));
    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("1->0");
  }

  @Test
  void aPairBeyondTheDevicesFailsClearly() {
    ProbeRun run = run(new P2pSettings(List.of(1L << 20), 0, 1, List.of(new DevicePair(0, 7))));
    assertThat(run.targets().get(0).error()).isEqualTo("no device 7 (found 2)");
  }

  /** 100 runs with faults sprinkled in: every path releases what it took. */
  @Test
  void nothingLeaksAcrossRunsWithFaults() {
    String[] faults = {
      "fail aclrtMemcpyAsync 507011 after 3",
      "fail aclrtMallocWithCfg 207001 after 1",
      "corrupt aclrtMemcpyAsync",
      "fail aclrtCreateEvent 100000 after 1",
      "fail aclrtSynchronizeStream 507046 after 2",
      "fail aclrtMemcpy 100000 after 2",
      "fail aclrtRecordEvent 100000 after 1",
      "fail aclrtMallocHost 207001",
    };
    int failed = 0;
    try (DeviceRuntime runtime = AscendRuntime.open(Backend.SIM)) {
      for (int i = 0; i < 100; i++) {
        if (i % 3 == 0) {
          control.set(faults[(i / 3) % faults.length]);
        } else {
          control.clear();
        }
        ProbeRun run =
            new P2pSettings(List.of(256L << 10), 1, 2, List.of())
                .newProbe()
                .run(
                    new ProbeContext(
                        runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
        failed += run.allSucceeded() ? 0 : 1;
      }
      control.clear();
      assertThat(failed).as("runs that met a fault").isGreaterThan(20);
      assertThat(runtime.liveAllocations()).contains(0L);
    }
  }
}
