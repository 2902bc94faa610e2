package io.linkwatch.probe.hosttransfer;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where neither move_pages nor numa_maps answers, every figure says {@code mem_node="unknown"},
 * there are no ratio series, and the reason is logged once for the process, not once per buffer or
 * per run. Runs {@link UnknownPlacementMain} in a child JVM so that "once" starts from zero.
 */
class HostTransferUnknownPlacementTest {
  @Test
  void unreadableNumaMapsGivesUnknownNodesNoRatiosAndOneWarningAboutIt(@TempDir Path dir)
      throws Exception {
    // A procfs whose self/maps is the real one (so the buffer's mapping is found) and whose
    // self/numa_maps cannot be read.
    Path self = Files.createDirectories(dir.resolve("proc/self"));
    Files.createSymbolicLink(self.resolve("maps"), Path.of("/proc/self/maps"));

    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                UnknownPlacementMain.class.getName(),
                dir.resolve("proc").toString())
            .start();
    CompletableFuture<String> err = read(child.getErrorStream());
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String stderr = err.get(10, TimeUnit.SECONDS);
    assertThat(child.exitValue()).as(stderr).isZero();

    List<ProbeRun> runs = new ArrayList<>();
    for (String line : out.strip().split("\n")) {
      runs.add(ProbeKind.JSON.read(line, ProbeRun.class));
    }
    assertThat(runs).hasSize(2);
    for (ProbeRun run : runs) {
      assertThat(run.allSucceeded()).as(run.toString()).isTrue();
      List<HostTransferBandwidth> bw =
          run.targets().stream()
              .flatMap(t -> t.measurements().stream())
              .filter(HostTransferBandwidth.class::isInstance)
              .map(HostTransferBandwidth.class::cast)
              .toList();
      // 2 devices x 1 node x 2 kinds x 2 sizes x 2 directions
      assertThat(bw)
          .hasSize(16)
          .allSatisfy(
              h -> {
                assertThat(h.memNode()).isEqualTo("unknown");
                assertThat(h.placementMethod()).isEqualTo("unknown");
              });
      assertThat(run.targets().stream().flatMap(t -> t.measurements().stream()))
          .noneMatch(HostBufferPages.class::isInstance);
    }
    List<String> warnings = stderr.lines().filter(l -> l.startsWith("WARN")).toList();
    // Each cause once for the process: move_pages refused, then numa_maps unreadable.
    assertThat(warnings).as(stderr).hasSize(2);
    assertThat(warnings.get(0)).contains("Per-page placement unavailable");
    assertThat(warnings.get(1)).contains("Page placement unknown").contains("numa_maps");
    assertThat(warnings.stream().filter(w -> w.contains("Page placement unknown"))).hasSize(1);
  }

  private static CompletableFuture<String> read(java.io.InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }
}
