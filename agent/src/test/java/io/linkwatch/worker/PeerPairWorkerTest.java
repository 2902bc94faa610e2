package io.linkwatch.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.probe.collective.PeerAllreduceProbe;
import io.linkwatch.probe.collective.PeerP2pProbe;
import io.linkwatch.probe.collective.PeerPairSettings;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.PeerP2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.topology.CommandTopologySource;
import io.linkwatch.testing.SimFace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The two-host probes' two sides as two worker processes of this machine, on each face of the sim
 * (HCCL's HcclGetRootInfo / HcclCommInitRootInfo, NCCL's ncclGetUniqueId / ncclCommInitRank with
 * its id passed by value): the side holding rank 0 writes the group's blob, the other joins with
 * it, and both measure and check the same rounds: the allreduce's, and the point to point's one way
 * each way and both ways at once. Across hosts, in network namespaces, with the agents' lease
 * between them: PeerCollectiveLiveTest.
 */
class PeerPairWorkerTest {
  @TempDir Path dir;

  private static WorkerRequest request(SimFace face, PeerPairSettings settings) {
    return new WorkerRequest(
        settings.probe(),
        settings,
        face.backend(),
        HostPaths.system(),
        CommandTopologySource.DEFAULT_COMMAND);
  }

  static Stream<Arguments> facesAndProbes() {
    return Stream.of(SimFace.values())
        .flatMap(
            f ->
                Stream.of(
                    Arguments.of(f, PeerAllreduceProbe.ID), Arguments.of(f, PeerP2pProbe.ID)));
  }

  @ParameterizedTest
  @MethodSource("facesAndProbes")
  void twoProcessesFormOneGroupThroughTheBlob(SimFace face, String probe) throws Exception {
    List<Long> sizes = List.of(1024L, 1L << 20);
    Path file = dir.resolve("root-info");
    WorkerProcess root = new WorkerProcess(List.of("-Xmx128m"));
    WorkerProcess joining = new WorkerProcess(List.of("-Xmx128m"));
    CompletableFuture<ProbeRun> first =
        CompletableFuture.supplyAsync(
            () ->
                root.run(
                    request(
                        face,
                        PeerPairSettings.root(probe, sizes, 1, 3, List.of(0), 2, file.toString())),
                    Duration.ofSeconds(60),
                    List.of("0")));
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!Files.exists(file) && !first.isDone() && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertThat(file).as("the root side's blob (its run: %s)", first.getNow(null)).exists();
    String blob = Files.readString(file);
    assertThat(java.util.Base64.getDecoder().decode(blob))
        .hasSize(face == SimFace.ASCEND ? 4108 : 128);

    // Rank 1 here, on device 1 (the A3 has two dies): each side checks what the other sent.
    ProbeRun second =
        joining.run(
            request(face, new PeerPairSettings(probe, sizes, 1, 3, List.of(1), 2, 1, blob, "")),
            Duration.ofSeconds(60),
            List.of("1"));
    for (ProbeRun run : List.of(first.get(), second)) {
      assertThat(run.probe()).isEqualTo(probe);
      TargetResult t = run.targets().get(0);
      assertThat(t.outcome()).as(first.get() + "\n" + second).isEqualTo(Outcome.SUCCESS);
      if (probe.equals(PeerAllreduceProbe.ID)) {
        assertThat(t.measurements()).hasSize(4);
        assertThat(t.measurements())
            .filteredOn(m -> m instanceof AllreduceBusBandwidth)
            .allSatisfy(
                m -> assertThat(((AllreduceBusBandwidth) m).busBytesPerSecond()).isPositive());
        assertThat(t.measurements())
            .filteredOn(m -> m instanceof AllreduceLatency)
            .allSatisfy(m -> assertThat(((AllreduceLatency) m).iterations()).isEqualTo(3));
      } else {
        // Per size: 0->1, 1->0, then both ways at once.
        assertThat(t.measurements())
            .map(m -> ((PeerP2pBandwidth) m).summary().replaceAll(" [0-9.]+GB/s$", ""))
            .containsExactly(
                "rank 0->1 1KiB",
                "rank 1->0 1KiB",
                "ranks 0<->1 1KiB",
                "rank 0->1 1MiB",
                "rank 1->0 1MiB",
                "ranks 0<->1 1MiB");
        assertThat(t.measurements())
            .allSatisfy(
                m -> {
                  PeerP2pBandwidth b = (PeerP2pBandwidth) m;
                  assertThat(b.bytesPerSecond()).isPositive();
                  assertThat(b.rounds()).isEqualTo(3);
                  assertThat(b.bytesPerSecond())
                      .isCloseTo(
                          (b.bothWays() ? 2.0 : 1.0) * b.sizeBytes() / b.p50Seconds(),
                          org.assertj.core.data.Percentage.withPercentage(0.01));
                });
      }
    }
    assertThat(first.get().targets().get(0).target()).isEqualTo("0");
    assertThat(second.targets().get(0).target()).isEqualTo("1");
  }
}
