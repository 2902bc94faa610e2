package io.linkwatch.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessFootprintTest {
  @TempDir Path dir;

  @Test
  void aLiveProcessHasItsResidentMemoryAndCpuFromProc() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "30").start();
    try {
      // until it is sleep: just after the fork it is the JDK's few-KiB spawn helper
      long until = System.nanoTime() + 10_000_000_000L;
      while (!sleeper.info().command().orElse("").endsWith("sleep") && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      ProcessFootprint f = ProcessFootprint.of(Path.of("/proc"), sleeper.pid()).orElseThrow();
      // a few pages right after the exec, a few hundred KiB once sleep has loaded
      assertThat(f.residentBytes()).isPositive().isLessThan(64L << 20);
      assertThat(f.cpuSeconds()).isGreaterThanOrEqualTo(0);
    } finally {
      sleeper.destroyForcibly().waitFor();
    }
    assertThat(ProcessFootprint.of(Path.of("/proc"), sleeper.pid())).isEmpty();
  }

  @Test
  void aZombieOrAMissingStatusHasNone() throws Exception {
    Path zombie = Files.createDirectories(dir.resolve("42"));
    Files.writeString(zombie.resolve("status"), "Name:\tx\nState:\tZ (zombie)\nThreads:\t1\n");
    assertThat(ProcessFootprint.of(dir, 42)).isEmpty();
    assertThat(ProcessFootprint.of(dir, 43)).isEmpty();
    assertThat(ProcessFootprint.residentBytes("VmPeak:\t 9 kB\nVmRSS:\t    5120 kB\n"))
        .contains(5L << 20);
  }
}
