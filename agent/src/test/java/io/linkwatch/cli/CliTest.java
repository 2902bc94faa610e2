package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.config.FindingActionTable;
import io.linkwatch.testing.JavaProcess;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.SimControl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one-shot commands as a user runs them: output, errors and exit codes. */
class CliTest {
  record Run(int exit, String out, String err) {}

  private SimControl control;

  @BeforeEach
  void noFaults() {
    control = SimControl.open();
  }

  @AfterEach
  void removeFaults() {
    control.close();
  }

  static Run cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void helpListsTheCommands() {
    Run r = cli("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("run", "probe", "topo", "check-config").doesNotContain("worker");
  }

  @Test
  void p2pPrintsBothDirectionsPerSize() {
    Run r =
        cli(
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "1MiB,4MiB",
            "--iterations",
            "3",
            "--warmup",
            "1");
    assertThat(r.exit()).isZero();
    String[] lines = r.out().split("\n");
    assertThat(lines[0]).matches("size\\s+0->1 GB/s\\s+0->1 ms\\s+1->0 GB/s\\s+1->0 ms");
    assertThat(lines[1]).matches("1MiB\\s+\\d+\\.\\d\\s+0\\.2\\d\\d\\s+\\d+\\.\\d\\s+0\\.2\\d\\d");
    assertThat(lines[2]).startsWith("4MiB");
    assertThat(r.out()).contains("link 0->1: SIO", "link 1->0: SIO");
  }

  @Test
  void p2pTakesLinkTypesFromTheTopologyCommandWhenTheRuntimeCannotTell() {
    String npuSmi = System.getenv("LINKWATCH_NATIVE_BUILD") + "/npu-smi info -t topo";
    control.set("fail aclrtGetDevicesTopo 207000");
    Run unknown =
        cli(
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "1MiB",
            "--iterations",
            "1",
            "--topology-command",
            "/nonexistent/npu-smi");
    assertThat(unknown.out()).contains("link 0->1: unknown");
    Run r =
        cli(
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "1MiB",
            "--iterations",
            "1",
            "--topology-command",
            npuSmi);
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("link 0->1: SIO", "link 1->0: SIO");
  }

  @Test
  void jsonCarriesTheSameResults() throws Exception {
    Run r =
        cli("probe", "p2p", "--backend", "sim", "--sizes", "1MiB", "--iterations", "2", "--json");
    assertThat(r.exit()).isZero();
    JsonNode run = JsonTrees.MAPPER.readTree(r.out());
    assertThat(run.get("schema_version").asInt()).isEqualTo(2);
    assertThat(run.get("probe").asText()).isEqualTo("p2p");
    assertThat(run.get("targets").get(0).get("result").asText()).isEqualTo("success");
    assertThat(run.get("targets").get(0).get("duration_seconds").isNumber()).isTrue();
    assertThat(run.get("targets")).hasSize(2);
    JsonNode m = run.get("targets").get(0).get("measurements").get(0);
    assertThat(m.get("type").asText()).isEqualTo("P2pBandwidth");
    assertThat(m.get("size_bytes").asLong()).isEqualTo(1L << 20);
    assertThat(m.get("bytes_per_second").asDouble()).isGreaterThan(1e9);
  }

  @Test
  void anInjectedFailureIsOneLinePerTargetAndExitOne() {
    control.set("fail aclrtMemcpyAsync 507011");
    Run r = cli("probe", "p2p", "--backend", "sim", "--sizes", "1MiB", "--iterations", "2");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().lines())
        .containsExactly(
            "linkwatch: p2p 0->1: aclrtMemcpyAsync returned 507011: injected fault: aclrtMemcpyAsync returned 507011",
            "linkwatch: p2p 1->0: aclrtMemcpyAsync returned 507011: injected fault: aclrtMemcpyAsync returned 507011");
  }

  @Test
  void aBusyDeviceIsOneLineAndExitThreeAndForceMeasuresAnyway() {
    control.set("busy 1 pid 4242 util 80");
    Run r = cli("probe", "p2p", "--backend", "sim", "--sizes", "16MiB", "--iterations", "3");
    assertThat(r.exit()).isEqualTo(Main.EXIT_DEVICE_BUSY);
    assertThat(r.err().lines())
        .containsExactly(
            "linkwatch: device 1 is busy: pid 4242 holds 0B, aicore 80%, hbm_bandwidth 80%,"
                + " npu 80%; measure anyway with --force");
    assertThat(r.out()).contains("busy").doesNotContain("failed");

    // Targets that need only idle devices are measured.
    Run local =
        cli("probe", "device-memory", "--backend", "sim", "--size", "16MiB", "--iterations", "2");
    assertThat(local.exit()).isEqualTo(Main.EXIT_DEVICE_BUSY);
    assertThat(local.out())
        .containsPattern("dev0\\s+16MiB\\s+\\d")
        .containsPattern("dev1\\s+16MiB\\s+busy");

    Run forced =
        cli("probe", "p2p", "--backend", "sim", "--sizes", "16MiB", "--iterations", "3", "--force");
    assertThat(forced.exit()).isZero();
    assertThat(forced.err()).isEmpty();
    assertThat(forced.out()).doesNotContain("busy");
  }

  @Test
  void corruptionIsReportedAsADataMismatch() {
    control.set("corrupt aclrtMemcpyAsync");
    Run r = cli("probe", "p2p", "--backend", "sim", "--sizes", "1MiB", "--iterations", "1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .contains("linkwatch: p2p 0->1: p2p 0->1 1MiB: data mismatch in the block at offset 0");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0|linkwatch: --sizes: '0' is not a size: it must be above 0",
        "-1|linkwatch: --sizes: '-1' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)",
        "12XB|linkwatch: --sizes: '12XB' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)",
        "128GiB|linkwatch: --sizes: 128GiB is more than device 0's memory (64GiB)"
      })
  void badSizesAreOneLineAndExitTwo(String size, String message) {
    Run r = cli("probe", "p2p", "--backend", "sim", "--sizes", size);
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().lines().findFirst()).contains(message);
    assertThat(r.out()).isEmpty();
  }

  /** Both directions put a send and a receive buffer of each size on every device. */
  @Test
  void aBidirectionalSizeMustFitTwiceOnEveryDevice() {
    Run r = cli("probe", "p2p-bidirectional", "--backend", "sim", "--sizes", "40GiB");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "linkwatch: --sizes: 40GiB (2 buffers of it per device) is more than device 0's"
                + " memory (64GiB)\n");
  }

  @Test
  void badIterationsExitTwo() {
    Run r = cli("probe", "p2p", "--backend", "sim", "--iterations", "0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("linkwatch: --iterations: must be between 1 and 100000, not 0\n");
  }

  /** This machine has no CANN: the real backend is one clear line, exit 2, no stack trace. */
  @Test
  void ascendWithoutCannIsOneLineExitTwo() throws Exception {
    JavaProcess.Result r =
        JavaProcess.run(Map.of(), Duration.ofSeconds(60), "probe", "p2p", "--backend", "ascend");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "linkwatch: libascendcl.so not found: install CANN and source set_env.sh, or use --backend sim\n");
    assertThat(r.out()).isEmpty();
  }

  /** No NVIDIA driver here either: the same, naming the driver's library. */
  @Test
  void cudaWithoutTheDriverIsOneLineExitTwo() throws Exception {
    JavaProcess.Result r =
        JavaProcess.run(Map.of(), Duration.ofSeconds(60), "probe", "p2p", "--backend", "cuda");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "linkwatch: libcuda.so.1 not found: install the NVIDIA driver, or use --backend"
                + " sim-cuda\n");
    assertThat(r.out()).isEmpty();
  }

  /** auto never picks the sim: with neither vendor's library it says what it looked for. */
  @Test
  void autoWithNoVendorLibraryIsOneLineExitTwo() {
    Run r = cli("probe", "device-memory");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("linkwatch: backend auto: neither libascendcl.so")
        .contains("libcuda.so.1", "--backend sim or sim-cuda")
        .doesNotContain("\n\n")
        .endsWith("simulator\n");
  }

  @Test
  void compareIsForAscendHostsOnly() {
    Run r = cli("compare", "--backend", "sim-cuda");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "linkwatch: compare runs Ascend's tools (ascend-dmi, hccl_test, npu-smi) and does not"
                + " apply to backend sim-cuda; on NVIDIA hosts run /usr/share/linkwatch/gpu-check.sh"
                + " (scripts/gpu-check.sh in the source tree)\n");
  }

  /** Among eight GPUs the table is ascend-dmi's matrix: sources down, destinations across. */
  @Test
  void simCudaPrintsAnNvlinkMatrix() {
    Run r =
        cli(
            "probe",
            "p2p",
            "--backend",
            "sim-cuda",
            "--sizes",
            "1MiB",
            "--iterations",
            "2",
            "--warmup",
            "0");
    assertThat(r.exit()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("Unidirectional p2p bandwidth matrix (GB/s), 1MiB");
    assertThat(lines.get(1)).matches("S\\\\D\\s+0\\s+1\\s+2\\s+3\\s+4\\s+5\\s+6\\s+7");
    for (int src = 0; src < 8; src++) {
      String[] cells = lines.get(2 + src).split("\\s+");
      assertThat(cells).hasSize(9);
      assertThat(cells[0]).isEqualTo(String.valueOf(src));
      for (int dst = 0; dst < 8; dst++) {
        assertThat(cells[1 + dst]).matches(src == dst ? "X" : "\\d+\\.\\d");
      }
    }
    assertThat(lines.get(10)).isEqualTo("Link matrix");
    assertThat(lines.get(12)).matches("0\\s+X(\\s+NVLINK){7}");
    assertThat(lines).hasSize(20);
  }

  /** One line per problem, and every line says it is linkwatch's (not only the first). */
  @Test
  void checkConfigReportsEveryErrorAndExitsTwo() throws Exception {
    java.nio.file.Path bad = java.nio.file.Files.createTempFile("linkwatch", ".yaml");
    java.nio.file.Files.writeString(bad, "listen: nowhere\nprobes:\n  p2p:\n    warmup: -2\n");
    Run r = cli("check-config", bad.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "linkwatch: "
                + bad
                + ": listen: 'nowhere' is not HOST:PORT (e.g. 0.0.0.0:10187)\n"
                + "linkwatch: "
                + bad
                + ": probes.p2p.warmup: must be between 0 and 10000, not -2\n");
    java.nio.file.Files.writeString(bad, "backend: sim\n");
    Run ok = cli("check-config", bad.toString());
    assertThat(ok.exit()).isZero();
    assertThat(ok.out()).startsWith(bad + ": ok (backend sim");
  }

  /** The tables in force: the operator's action row replaces the shipped one of its code. */
  @Test
  void checkConfigExpectedPrintsTheActionOfEveryCode() throws Exception {
    java.nio.file.Path file = java.nio.file.Files.createTempFile("linkwatch", ".yaml");
    java.nio.file.Files.writeString(
        file,
        "finding_actions:\n  - {code: LW-LINK-DOWN, action: open a ticket for the hardware team}\n");
    Run r = cli("check-config", "--expected", file.toString());
    assertThat(r.exit()).isZero();
    List<String> lines = r.out().lines().toList();
    int table = lines.indexOf("finding actions (" + FindingActionTable.CODES.size() + " codes):");
    assertThat(table).as(r.out()).isPositive();
    List<String> rows = lines.subList(table + 2, lines.size());
    assertThat(rows).hasSize(FindingActionTable.CODES.size());
    assertThat(rows.stream().filter(l -> l.startsWith("LW-LINK-DOWN ")).findFirst().orElseThrow())
        .contains("open a ticket for the hardware team")
        .contains("never")
        .endsWith("config");
    assertThat(rows.stream().filter(l -> l.startsWith("LW-LINK-LANES ")).findFirst().orElseThrow())
        .contains("reset the device to retrain the link")
        .contains("3 times in 168h: FAIL")
        .endsWith("shipped");
  }

  @Test
  void anUnknownHookIsAUsageError() {
    Run r = cli("status", "--hook", "slurm");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("'slurm' is not a hook: use healthcheck, prolog, epilog, npd");
  }
}
