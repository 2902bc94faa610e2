package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Sizes the host cannot back are refused before anything is allocated: the one-shot probes and
 * {@code check-config} hold them to {@code MemAvailable}, here a fixture host with 2GiB available.
 */
class HostMemoryPreflightTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private static HostPaths smallHost() {
    try {
      Path root = Path.of(HostMemoryPreflightTest.class.getResource("/host/small-memory").toURI());
      return new HostPaths(root.resolve("proc"), root.resolve("sys"));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private int linkwatch(String... args) {
    CommandLine cli = Main.commandLine(smallHost());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static String meminfo() {
    return smallHost().procfs().resolve("meminfo").toString();
  }

  @Test
  void aP2pSizeTheSimCannotBackInHostMemoryIsRefusedBeforeAnyCopy() {
    long start = System.nanoTime();
    int code = linkwatch("probe", "p2p", "--backend", "sim", "--sizes", "4GiB");

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: --sizes: 4GiB (2 buffers of it in host memory on the sim) is more than"
                + " the 2GiB this host has available (MemAvailable in "
                + meminfo()
                + ")"
                + System.lineSeparator());
    assertThat(out.toString()).isEmpty();
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }

  @Test
  void aHostTransferBufferLargerThanTheHostIsRefused() {
    int code = linkwatch("probe", "host-transfer", "--backend", "sim-cuda", "--sizes", "1MiB,3GiB");

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: --sizes: 3GiB (2 buffers of it in host memory on the sim) is more than"
                + " the 2GiB this host has available (MemAvailable in "
                + meminfo()
                + ")"
                + System.lineSeparator());
  }

  @Test
  void aSizeWithinTheHostsMemoryIsStillMeasured() {
    int code =
        linkwatch(
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "1MiB",
            "--iterations",
            "1",
            "--warmup",
            "0",
            "--pairs",
            "0-1");

    assertThat(err.toString()).isEmpty();
    assertThat(code).isZero();
    assertThat(out.toString()).contains("1MiB");
  }

  @Test
  void checkConfigReportsASizeTheHostCannotBackUnderItsKey(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("linkwatch.yaml");
    Files.writeString(file, "backend: sim\nprobes:\n  p2p:\n    sizes: [40GiB]\n");

    int code = linkwatch("check-config", file.toString());

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: "
                + file
                + ": probes.p2p.sizes: 40GiB (2 buffers of it in host memory on the sim) is more"
                + " than the 2GiB this host has available (MemAvailable in "
                + meminfo()
                + ")"
                + System.lineSeparator());
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void checkConfigAcceptsSizesWithinTheHostsMemory(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("linkwatch.yaml");
    Files.writeString(file, "backend: sim\nprobes:\n  p2p:\n    sizes: [64MiB, 512MiB]\n");

    int code = linkwatch("check-config", file.toString());

    assertThat(err.toString()).isEmpty();
    assertThat(code).isZero();
    assertThat(out.toString()).startsWith(file + ": ok");
  }
}
