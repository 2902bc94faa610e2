package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.hosttransfer.HostTransferBandwidth;
import io.linkwatch.probe.hosttransfer.HostTransferTable;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.testing.SimFace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/** {@code linkwatch probe host-transfer}, run in this process with its output captured. */
class ProbeHostTransferCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int execute(CommandLine cli, String... args) {
    cli.setExecutionExceptionHandler(new ErrorHandler());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  /** The whole command line, as {@link Main#execute} builds it. */
  private int linkwatch(String... args) {
    return execute(Main.commandLine(), args);
  }

  @Test
  void aNodeThatDoesNotExistIsAUsageErrorOnOneLine() {
    int code = linkwatch("probe", "host-transfer", "--backend", "sim", "--nodes", "0,63");

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .matches("linkwatch: --nodes: NUMA node 63 does not exist \\(nodes: [0-9,-]+\\)\\R");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void aNodeWithoutCpusIsAUsageErrorOnOneLine(@TempDir Path sys) throws Exception {
    Path nodes = Files.createDirectories(sys.resolve("devices/system/node"));
    Files.writeString(nodes.resolve("online"), "0-1\n");
    Files.createDirectories(nodes.resolve("node0"));
    Files.writeString(nodes.resolve("node0/cpulist"), "0-1\n");
    Files.createDirectories(nodes.resolve("node1"));
    Files.writeString(nodes.resolve("node1/cpulist"), "\n");
    HostPaths paths = new HostPaths(Path.of("/proc"), sys);

    int code =
        execute(
            Main.commandLine(paths), "probe", "host-transfer", "--backend", "sim", "--nodes", "1");

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: --nodes: NUMA node 1 has no CPUs, so no thread can run there (nodes with"
                + " CPUs: 0)"
                + System.lineSeparator());
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void badMemoryKindAndDeviceAreUsageErrors(SimFace face) {
    String backend = face.backend().id();
    assertThat(linkwatch("probe", "host-transfer", "--backend", backend, "--memory", "huge"))
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(linkwatch("probe", "host-transfer", "--backend", backend, "--devices", "9"))
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: --memory: 'huge' is not a kind of host memory (use pinned or pageable)"
                + System.lineSeparator()
                + "linkwatch: --devices: no device 9 (found "
                + face.devices()
                + ")"
                + System.lineSeparator());
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void printsTheTableOnThisMachine(SimFace face) {
    int code =
        linkwatch(
            "probe",
            "host-transfer",
            "--backend",
            face.backend().id(),
            "--devices",
            "0",
            "--nodes",
            "0",
            "--sizes",
            "4MiB",
            "--iterations",
            "3",
            "--warmup",
            "1");

    assertThat(code).as(err.toString()).isZero();
    List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(0).split("\\s{2,}"))
        .containsExactly(
            "device", "cpu node", "mem node", "memory", "size", "H2D GB/s", "D2H GB/s", "pages");
    assertThat(lines.get(1))
        .matches(
            "0 +0 +0 +pinned \\("
                + face.symbol(SimFace.Call.HOST_REGISTER)
                + "\\) +4MiB +[0-9.]+ +[0-9.]+ +N0 1\\.00");
    assertThat(lines.get(2)).matches("0 +0 +0 +pageable +4MiB +[0-9.]+ +[0-9.]+ +N0 1\\.00");
    assertThat(lines.get(3))
        .matches(
            "pageable H2D, device 0, 4MiB: only node 0 measured \\([0-9.]+ GB/s\\), nothing to compare");
  }

  @Test
  void spreadLineNamesTheBestAndWorstNodeAndThePenalty() {
    // Seed 004's pageable H2D figures (GB/s) by CPU node.
    double[] h2d = {24.9, 6.6, 16.6, 18.2, 18.6, 10.1, 22.4, 18.6};
    int[] memNode = {0, 1, 2, 3, 5, 7, 6, 7};
    List<Measurement> ms =
        java.util.stream.IntStream.range(0, 8)
            .<Measurement>mapToObj(
                n ->
                    new HostTransferBandwidth(
                        0,
                        "h2d",
                        "pageable",
                        n,
                        String.valueOf(memNode[n]),
                        1L << 30,
                        h2d[n] * 1e9,
                        "numa_maps",
                        "mmap"))
            .toList();

    assertThat(HostTransferTable.spreadLines(ms))
        .containsExactly(
            "pageable H2D, device 0, 1GiB: best node 0 (24.9 GB/s), worst node 1 (6.6 GB/s): 73 %"
                + " lower");
  }
}
