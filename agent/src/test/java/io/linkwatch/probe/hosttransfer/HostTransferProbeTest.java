package io.linkwatch.probe.hosttransfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.host.Memory;
import io.linkwatch.host.PageNodeQuery;
import io.linkwatch.host.Placement;
import io.linkwatch.host.ThreadAffinity;
import io.linkwatch.probe.ForwardingRuntime;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.hosttransfer.HostTransferProbe.AffinityRunner;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.testing.SimFace;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The probe against the sim through the real JNA binding, on this machine's real /proc and /sys
 * (one NUMA node here), and against the 8-node fixture tree of seed 004's machine with the
 * placement lookup and the CPU pinning injected.
 */
class HostTransferProbeTest {
  private static final long MIB = 1 << 20;
  private static final String NEW_KERNEL = "6.6.0-28.0.0.34.oe2403.aarch64";

  private static SimFace openFace;
  private static DeviceRuntime open;

  /**
   * The runtime of one sim face, kept open across tests of that face; a change of face closes the
   * other first, so the leak checks count one runtime's objects.
   */
  static DeviceRuntime runtime(SimFace face) {
    if (openFace != face) {
      close();
      open = face.open();
      openFace = face;
    }
    return open;
  }

  @AfterAll
  static void close() {
    if (open != null) {
      open.close();
      open = null;
      openFace = null;
    }
  }

  static ProbeContext context(DeviceRuntime runtime, HostPaths paths) {
    return new ProbeContext(
        runtime,
        r -> {
          throw new AssertionError("host_transfer needs no device topology");
        },
        paths,
        Progress.NONE);
  }

  static HostTransferSettings settings(
      List<Long> sizes, List<Integer> devices, List<Integer> nodes, List<String> memory) {
    return new HostTransferSettings(sizes, 1, 3, devices, nodes, memory);
  }

  static HostPaths atlas800tA3() {
    try {
      Path root = Path.of(HostTransferProbeTest.class.getResource("/host/atlas-800t-a3").toURI());
      return new HostPaths(root.resolve("proc"), root.resolve("sys"));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<Measurement> measurements(ProbeRun run) {
    return run.targets().stream().flatMap(t -> t.measurements().stream()).toList();
  }

  static <T> List<T> of(ProbeRun run, Class<T> type) {
    return measurements(run).stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** Records the CPUs it was asked to pin to and runs the work unpinned. */
  static final class RecordingAffinity implements AffinityRunner {
    final List<List<Integer>> requested = new ArrayList<>();

    @Override
    public <T> T runPinned(List<Integer> cpus, Supplier<T> work) {
      requested.add(cpus);
      return work.get();
    }
  }

  static PageNodeQuery allOn(int node) {
    return pages -> {
      int[] status = new int[pages.length];
      Arrays.fill(status, node);
      return status;
    };
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void onThisMachineBothKindsSitOnNodeZeroAtTheSimsFigures(SimFace face) {
    DeviceRuntime runtime = runtime(face);
    long live = runtime.liveAllocations().orElseThrow();
    // The production constructor: real move_pages, real sched_setaffinity, this kernel.
    Probe probe =
        new HostTransferSettings(
                List.of(64 * MIB), 3, 10, List.of(0), List.of(), List.of("pinned", "pageable"))
            .newProbe();

    ProbeRun run = probe.run(context(runtime, HostPaths.system()));

    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev0/node0");
    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    List<HostTransferBandwidth> bw = of(run, HostTransferBandwidth.class);
    assertThat(bw)
        .extracting(h -> h.memory() + " " + h.direction())
        .containsExactly("pinned h2d", "pinned d2h", "pageable h2d", "pageable d2h");
    assertThat(bw)
        .allSatisfy(
            h -> {
              assertThat(h.device()).isZero();
              assertThat(h.cpuNode()).isZero();
              assertThat(h.memNode()).isEqualTo("0");
              assertThat(h.sizeBytes()).isEqualTo(64 * MIB);
              assertThat(h.placementMethod()).isIn(Placement.MOVE_PAGES, Placement.NUMA_MAPS);
            });
    // Kernel here is newer than 5.10 and the sim can register host memory.
    assertThat(bw.get(0).allocation()).isEqualTo(runtime.pinnedMemoryCalls().register());
    assertThat(bw.get(2).allocation()).isEqualTo("mmap");
    // The profiles' figures: pinned 58/41 (A3, seed 004) or 55/55 (H200); pageable from node 0
    // with pages on node 0 24.9/25.4 (seed 004) or the H200 profile's default 20/20 GB/s. Latency
    // and 1 % noise keep the 64 MiB figures a little lower, within 10 %.
    double pageableH2d = face == SimFace.ASCEND ? 24.9 : 20;
    double pageableD2h = face == SimFace.ASCEND ? 25.4 : 20;
    assertThat(bw.get(0).bytesPerSecond())
        .isCloseTo(face.pinnedH2d(), within(face.pinnedH2d() / 10));
    assertThat(bw.get(1).bytesPerSecond())
        .isCloseTo(face.pinnedD2h(), within(face.pinnedD2h() / 10));
    assertThat(bw.get(2).bytesPerSecond() / 1e9).isCloseTo(pageableH2d, within(pageableH2d / 10));
    assertThat(bw.get(3).bytesPerSecond() / 1e9).isCloseTo(pageableD2h, within(pageableD2h / 10));
    assertThat(of(run, HostBufferPages.class))
        .containsExactly(
            new HostBufferPages(0, "pinned", 0, 0, 1.0),
            new HostBufferPages(0, "pageable", 0, 0, 1.0));
    assertThat(runtime.liveAllocations()).contains(live);
  }

  /** The 5.10 rule is AscendCL's; CUDA registers host memory on any kernel. */
  @Test
  void onAKernelUpTo510CudaStillRegisters() {
    DeviceRuntime runtime = runtime(SimFace.CUDA);
    ProbeRun run =
        pinnedOnly("5.10.0-60.18.0.50.oe2203.aarch64").run(context(runtime, HostPaths.system()));

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(of(run, HostTransferBandwidth.class))
        .hasSize(2)
        .allSatisfy(h -> assertThat(h.allocation()).isEqualTo("cuMemHostRegister_v2"));
  }

  @Test
  void onAKernelUpTo510PinnedMemoryComesFromMallocHostAndIsStillMeasured() {
    DeviceRuntime runtime = runtime(SimFace.ASCEND);
    HostTransferProbe probe =
        new HostTransferProbe(
            settings(List.of(4 * MIB), List.of(0), List.of(), List.of("pinned")),
            io.linkwatch.host.MovePagesQuery.system(),
            ThreadAffinity::runPinned,
            "5.10.0-60.18.0.50.oe2203.aarch64");

    ProbeRun run = probe.run(context(runtime, HostPaths.system()));

    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    List<HostTransferBandwidth> bw = of(run, HostTransferBandwidth.class);
    assertThat(bw)
        .hasSize(2)
        .allSatisfy(
            h -> {
              assertThat(h.allocation()).isEqualTo("aclrtMallocHost");
              assertThat(h.memNode()).isEqualTo("0");
            });
    // 4 MiB at the sim's pinned 58 GB/s plus its 0.02 ms per copy: 45.4 GB/s.
    double expected = 4 * MIB / (4 * MIB / 58e9 + 20e-6) / 1e9;
    assertThat(bw.get(0).bytesPerSecond() / 1e9).isCloseTo(expected, within(expected * 0.05));
  }

  /**
   * AscendCL documents three codes for "not supported" (the interface, the feature, the runtime
   * feature); aclrtHostRegisterV2 answering any of them means "pin with aclrtMallocHost instead",
   * and the run is measured as if the registration had never been tried.
   */
  @ParameterizedTest
  @ValueSource(ints = {200001, 200006, 207000})
  void everyNotSupportedCodeFromHostRegisterFallsBackToMallocHost(int code) {
    DeviceRuntime runtime = runtime(SimFace.ASCEND);
    SimFaults.set("fail aclrtHostRegisterV2 " + code);
    try {
      ProbeRun run = pinnedOnly(NEW_KERNEL).run(context(runtime, HostPaths.system()));

      assertThat(run.allSucceeded()).as(run.toString()).isTrue();
      assertThat(of(run, HostTransferBandwidth.class))
          .hasSize(2)
          .allSatisfy(h -> assertThat(h.allocation()).isEqualTo("aclrtMallocHost"));
    } finally {
      SimFaults.clear(runtime);
    }
  }

  /** CUDA's "not supported" (801) from the registration also means: allocate pinned instead. */
  @Test
  void cudaNotSupportedFromHostRegisterFallsBackToHostAlloc() {
    DeviceRuntime runtime = runtime(SimFace.CUDA);
    SimFaults.set("fail cuMemHostRegister_v2 801");
    try {
      ProbeRun run = pinnedOnly(NEW_KERNEL).run(context(runtime, HostPaths.system()));

      assertThat(run.allSucceeded()).as(run.toString()).isTrue();
      assertThat(of(run, HostTransferBandwidth.class))
          .hasSize(2)
          .allSatisfy(h -> assertThat(h.allocation()).isEqualTo("cuMemHostAlloc"));
    } finally {
      SimFaults.clear(runtime);
    }
  }

  /** Any other failure of the registration is a failure of the run, named, not a fallback. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aHostRegisterFailureThatIsNotNotSupportedFailsTheRunAndNamesTheCall(SimFace face) {
    DeviceRuntime runtime = runtime(face);
    String register = runtime.pinnedMemoryCalls().register();
    SimFaults.set("fail " + register + " 2");
    try {
      ProbeRun run = pinnedOnly(NEW_KERNEL).run(context(runtime, HostPaths.system()));

      assertThat(run.allSucceeded()).isFalse();
      assertThat(run.targets().get(0).error()).contains(register + " returned 2");
      assertThat(of(run, HostTransferBandwidth.class)).isEmpty();
    } finally {
      SimFaults.clear(runtime);
    }
  }

  private static HostTransferProbe pinnedOnly(String kernel) {
    return new HostTransferProbe(
        settings(List.of(4 * MIB), List.of(0), List.of(), List.of("pinned")),
        io.linkwatch.host.MovePagesQuery.system(),
        ThreadAffinity::runPinned,
        kernel);
  }

  @Test
  void seed004ThreadOnNodeFourWithPagesOnNodeFiveIsLabelledCpu4Mem5() {
    DeviceRuntime runtime = runtime(SimFace.ASCEND);
    RecordingAffinity affinity = new RecordingAffinity();
    HostTransferProbe probe =
        new HostTransferProbe(
            settings(List.of(4 * MIB), List.of(0), List.of(4), List.of("pinned", "pageable")),
            allOn(5),
            affinity,
            NEW_KERNEL);

    ProbeRun run = probe.run(context(runtime, atlas800tA3()));

    assertThat(run.targets()).extracting(TargetResult::target).containsExactly("dev0/node4");
    assertThat(run.allSucceeded()).as(run.toString()).isTrue();
    assertThat(affinity.requested)
        .containsExactly(IntStream.rangeClosed(320, 399).boxed().toList());
    assertThat(of(run, HostTransferBandwidth.class))
        .hasSize(4)
        .allSatisfy(
            h -> {
              assertThat(h.cpuNode()).isEqualTo(4);
              assertThat(h.memNode()).isEqualTo("5");
              assertThat(h.placementMethod()).isEqualTo(Placement.MOVE_PAGES);
            });
    assertThat(of(run, HostBufferPages.class))
        .containsExactly(
            new HostBufferPages(0, "pinned", 4, 5, 1.0),
            new HostBufferPages(0, "pageable", 4, 5, 1.0));
  }

  @Test
  void defaultNodesAreEveryNodeWithCpusAndUnknownNodesFailTheirTargetOnly() {
    DeviceRuntime runtime = runtime(SimFace.ASCEND);
    RecordingAffinity affinity = new RecordingAffinity();
    HostTransferProbe all =
        new HostTransferProbe(
            settings(List.of(MIB), List.of(0), List.of(), List.of("pageable")),
            allOn(0),
            affinity,
            NEW_KERNEL);
    assertThat(all.run(context(runtime, atlas800tA3())).targets())
        .extracting(TargetResult::target)
        .containsExactly(
            "dev0/node0",
            "dev0/node1",
            "dev0/node2",
            "dev0/node3",
            "dev0/node4",
            "dev0/node5",
            "dev0/node6",
            "dev0/node7");

    HostTransferProbe some =
        new HostTransferProbe(
            settings(List.of(MIB), List.of(0, 7), List.of(9, 1), List.of("pageable")),
            allOn(1),
            new RecordingAffinity(),
            NEW_KERNEL);
    ProbeRun run = some.run(context(runtime, atlas800tA3()));
    assertThat(run.targets())
        .extracting(TargetResult::target, TargetResult::outcome, TargetResult::error)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "dev0/node9", Outcome.ERROR, "NUMA node 9 does not exist (nodes: 0-7)"),
            org.assertj.core.groups.Tuple.tuple("dev0/node1", Outcome.SUCCESS, ""),
            org.assertj.core.groups.Tuple.tuple(
                "dev7/node9", Outcome.ERROR, "no device 7 (found 2)"),
            org.assertj.core.groups.Tuple.tuple(
                "dev7/node1", Outcome.ERROR, "no device 7 (found 2)"));
  }

  @Test
  void pagesSplitOverTwoNodesGiveTheMajorityNodeAndARatioForEach() {
    DeviceRuntime runtime = runtime(SimFace.ASCEND);
    PageNodeQuery threeToOne =
        pages -> IntStream.range(0, pages.length).map(i -> i % 4 == 3 ? 7 : 5).toArray();
    HostTransferProbe probe =
        new HostTransferProbe(
            settings(List.of(MIB, 4 * MIB), List.of(0), List.of(5), List.of("pageable")),
            threeToOne,
            new RecordingAffinity(),
            NEW_KERNEL);

    ProbeRun run = probe.run(context(runtime, atlas800tA3()));

    assertThat(of(run, HostTransferBandwidth.class))
        .extracting(HostTransferBandwidth::sizeBytes, HostTransferBandwidth::memNode)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(MIB, "5"),
            org.assertj.core.groups.Tuple.tuple(MIB, "5"),
            org.assertj.core.groups.Tuple.tuple(4 * MIB, "5"),
            org.assertj.core.groups.Tuple.tuple(4 * MIB, "5"));
    // One ratio series per node holding pages, from the largest buffer only (no size label).
    assertThat(of(run, HostBufferPages.class))
        .extracting(HostBufferPages::memNode, HostBufferPages::ratio)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(5, 0.75),
            org.assertj.core.groups.Tuple.tuple(7, 0.25));
  }

  @Test
  void anUnknownPlacementGivesUnknownMemNodeAndNoRatios() {
    List<Measurement> unknown =
        HostTransferProbe.measurements(
            0, "pageable", 4, MIB, Placement.unknown(), 2e10, 2.2e10, "mmap", true);
    assertThat(unknown)
        .hasSize(2)
        .allSatisfy(m -> assertThat(((HostTransferBandwidth) m).memNode()).isEqualTo("unknown"));

    // Known method but no page found on any node (never touched): still not a guess.
    List<Measurement> empty =
        HostTransferProbe.measurements(
            0,
            "pinned",
            4,
            MIB,
            new Placement(Placement.MOVE_PAGES, Map.of()),
            2e10,
            2.2e10,
            "aclrtMallocHost",
            true);
    assertThat(empty)
        .hasSize(2)
        .allSatisfy(
            m -> {
              HostTransferBandwidth h = (HostTransferBandwidth) m;
              assertThat(h.memNode()).isEqualTo("unknown");
              assertThat(h.placementMethod()).isEqualTo("unknown");
            });

    List<Measurement> known =
        HostTransferProbe.measurements(
            1,
            "pageable",
            4,
            MIB,
            new Placement(Placement.NUMA_MAPS, Map.of(5, 4096L)),
            1.86e10,
            2.25e10,
            "mmap",
            true);
    assertThat(known)
        .containsExactly(
            new HostTransferBandwidth(
                1, "h2d", "pageable", 4, "5", MIB, 1.86e10, "numa_maps", "mmap"),
            new HostTransferBandwidth(
                1, "d2h", "pageable", 4, "5", MIB, 2.25e10, "numa_maps", "mmap"),
            new HostBufferPages(1, "pageable", 4, 5, 1.0));
    assertThat(known.get(0).summary())
        .isEqualTo("dev1 h2d pageable cpu4 mem5 1MiB 18.6GB/s (numa_maps, mmap)");
    assertThat(known.get(2).summary()).isEqualTo("dev1 pageable cpu4 mem5 pages 1.00");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void affinityIsRestoredAfterASuccessfulAndAFailedRunAndNothingLeaks(SimFace face) {
    DeviceRuntime runtime = runtime(face);
    List<Integer> original = ThreadAffinity.current();
    assumeThat(original).as("needs two CPUs to narrow the mask").hasSizeGreaterThanOrEqualTo(2);
    List<Integer> narrowed = List.of(original.get(original.size() - 1));
    List<Integer> node0 =
        io.linkwatch.host.NumaTopology.read(HostPaths.system()).node(0).orElseThrow().cpus();
    long live = runtime.liveAllocations().orElseThrow();

    for (int failAt : new int[] {0, 1, 5, 9}) {
      List<List<Integer>> seenDuringCopies = new ArrayList<>();
      DeviceRuntime failing =
          new ForwardingRuntime(runtime) {
            int calls;

            @Override
            public void copyAsync(
                Memory dst, long dstOff, Memory src, long srcOff, long bytes, DeviceStream s) {
              seenDuringCopies.add(ThreadAffinity.current());
              if (++calls == failAt) {
                throw new DeviceException("aclrtMemcpyAsync", 507899, "injected by the test");
              }
              super.copyAsync(dst, dstOff, src, srcOff, bytes, s);
            }
          };
      // warm-up 1 + 3 timed copies per direction: call 1 is pinned H2D, 5 pinned D2H, 9 pageable.
      HostTransferProbe probe =
          new HostTransferProbe(
              settings(List.of(MIB), List.of(0), List.of(0), List.of("pinned", "pageable")),
              io.linkwatch.host.MovePagesQuery.system(),
              ThreadAffinity::runPinned,
              NEW_KERNEL);

      List<Integer> after =
          ThreadAffinity.runPinned(
              narrowed,
              () -> {
                ProbeRun run = probe.run(context(failing, HostPaths.system()));
                TargetResult target = run.targets().get(0);
                if (failAt == 0) {
                  assertThat(target.outcome()).isEqualTo(Outcome.SUCCESS);
                } else {
                  assertThat(target.outcome()).isEqualTo(Outcome.ERROR);
                  assertThat(target.error())
                      .isEqualTo("aclrtMemcpyAsync returned 507899: injected by the test");
                  assertThat(target.measurements()).isEmpty();
                }
                return ThreadAffinity.current();
              });

      assertThat(after).as("mask after the run, failAt=" + failAt).isEqualTo(narrowed);
      assertThat(seenDuringCopies).isNotEmpty().allSatisfy(m -> assertThat(m).isEqualTo(node0));
      assertThat(runtime.liveAllocations()).as("failAt=" + failAt).contains(live);
    }
    assertThat(ThreadAffinity.current()).isEqualTo(original);
  }

  @Test
  void resultsSurviveTheTripThroughTheWorkerAsJson() throws Exception {
    ProbeRun run =
        ProbeRun.of(
            "host_transfer",
            List.of(
                TargetResult.success(
                    "dev0/node4",
                    1.5,
                    HostTransferProbe.measurements(
                        0,
                        "pinned",
                        4,
                        MIB,
                        new Placement(Placement.NUMA_MAPS, Map.of(5, 256L)),
                        5.8e10,
                        4.1e10,
                        "aclrtHostRegisterV2",
                        true))));
    String json = ProbeKind.JSON.write(run);
    assertThat(ProbeKind.JSON.read(json, ProbeRun.class)).isEqualTo(run);
  }

  @Test
  void hostRegistrationNeedsAKernelNewerThan510() {
    assertThat(HostTransferProbe.kernelAllowsHostRegister("6.18.44-fc-v782")).isTrue();
    assertThat(HostTransferProbe.kernelAllowsHostRegister("5.15.0-91-generic")).isTrue();
    assertThat(HostTransferProbe.kernelAllowsHostRegister("5.11.0")).isTrue();
    assertThat(HostTransferProbe.kernelAllowsHostRegister("5.10.0-60.18.0.50.oe2203.aarch64"))
        .isFalse();
    assertThat(HostTransferProbe.kernelAllowsHostRegister("4.19.90-24.4.v2101.ky10.aarch64"))
        .isFalse();
    assertThat(HostTransferProbe.kernelAllowsHostRegister("")).isFalse();
    assertThat(HostTransferProbe.kernelAllowsHostRegister("unknown")).isFalse();
  }
}
