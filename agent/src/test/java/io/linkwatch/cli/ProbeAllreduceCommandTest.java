package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code linkwatch probe allreduce} on the sim's default profile (the A3 figures of seed 001). */
class ProbeAllreduceCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void noFaults() {
    SimFaults.clear();
  }

  private int execute(String... args) {
    CommandLine cli = Main.commandLine();
    cli.setExecutionExceptionHandler(new ErrorHandler());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private ProbeRun json(String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("probe", "allreduce", "--backend", "sim", "--json"));
    all.addAll(List.of(args));
    int rc = execute(all.toArray(String[]::new));
    assertThat(rc).as("stderr: %s", err).isZero();
    return ProbeKind.JSON.readValue(out.toString(), ProbeRun.class);
  }

  @Test
  void oneKibLatencyMatchesTheSeed() throws IOException {
    ProbeRun run = json("--sizes", "1KiB");

    AllreduceLatency l = (AllreduceLatency) run.targets().get(0).measurements().get(0);
    // seed 001: 272.7 us
    assertThat(l.p50Seconds()).isCloseTo(273e-6, within(27.3e-6));
  }

  @Test
  void oneGibBusBandwidthMatchesTheSeed() throws IOException {
    // The sim really reduces 1 GiB per rank (seconds per round on a small CI machine), and its
    // model needs no warm-up: two rounds.
    ProbeRun run = json("--sizes", "1GiB", "--warmup", "0", "--iterations", "2");

    AllreduceBusBandwidth b = (AllreduceBusBandwidth) run.targets().get(0).measurements().get(1);
    // seed 001: 105.1 GB/s
    assertThat(b.busBytesPerSecond()).isCloseTo(105e9, within(10.5e9));
  }

  @Test
  void printsATableLikeTheFieldNotes() {
    int rc =
        execute(
            "probe", "allreduce", "--backend", "sim", "--sizes", "1KiB,64KiB", "--iterations", "5");

    assertThat(rc).as("stderr: %s", err).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines[0]).isEqualTo("size   p50      p99      algbw GB/s  busbw GB/s");
    assertThat(lines[1]).matches("1KiB   2\\d\\d\\.\\dus  \\d+\\.\\dus  0\\.0         0\\.0");
    assertThat(lines[2]).startsWith("64KiB  ");
    assertThat(lines[3]).isEqualTo("devices 0,1: fp16 sum, busbw = algbw*2(n-1)/n");
  }

  @Test
  void failedRunExitsOneWithTheErrorOnStderr() {
    SimFaults.set("fail HcclAllReduce 4");

    int rc = execute("probe", "allreduce", "--backend", "sim", "--sizes", "1KiB");

    assertThat(rc).isEqualTo(Main.EXIT_FAILED);
    assertThat(out.toString()).contains("1KiB  failed  -");
    assertThat(err.toString())
        .contains("linkwatch: allreduce 0,1: HcclAllReduce returned 4: internal error");
  }

  @Test
  void rejectsSizesThatAreNotWholeFp16Elements() {
    int rc = execute("probe", "allreduce", "--backend", "sim", "--sizes", "1KiB,1001");

    assertThat(rc).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: --sizes: '1001' is not a multiple of 2 bytes"
                + " (the collectives send fp16 elements)\n");
  }

  @Test
  void rejectsOneOrRepeatedDevices() {
    assertThat(execute("probe", "allreduce", "--backend", "sim", "--devices", "1"))
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(execute("probe", "allreduce", "--backend", "sim", "--devices", "0,1,0"))
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "linkwatch: --devices: list at least two devices, or none for all devices\n"
                + "linkwatch: --devices: device 0 is listed twice\n");
  }

  @Test
  void singleDeviceMachineIsNotApplicable() throws Exception {
    // The profile is read at aclInit, so this runs in a child JVM with its own environment.
    Path profile =
        Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"))
            .resolveSibling("profiles")
            .resolve("single-device.profile");
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            "io.linkwatch.cli.Main",
            "probe",
            "allreduce",
            "--backend",
            "sim",
            "--json");
    pb.environment().put("LINKWATCH_SIM_PROFILE", profile.toString());
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    Process p = pb.start();
    p.getOutputStream().close();
    String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(p.exitValue()).as("stderr: %s", stderr).isZero();
    assertThat(stderr).contains("linkwatch: skipped: allreduce needs two devices, found 1");
    ProbeRun run = ProbeKind.JSON.readValue(stdout, ProbeRun.class);
    assertThat(run.targets()).isEmpty();
    assertThat(run.skippedBecause()).isEqualTo("allreduce needs two devices, found 1");
  }
}
