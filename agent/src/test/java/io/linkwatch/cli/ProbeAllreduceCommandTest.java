package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.status.ProbeRunDocument;
import io.linkwatch.status.StatusCodec;
import io.linkwatch.testing.SimFace;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/**
 * {@code linkwatch probe allreduce} on each sim face's default profile (on Ascend, the A3 figures
 * of seed 001), over devices 0 and 1.
 */
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

  /** {@code probe allreduce} over devices 0 and 1 of {@code face}, then {@code args}. */
  private int allreduce(SimFace face, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of("probe", "allreduce", "--backend", face.backend().id(), "--devices", "0,1"));
    all.addAll(List.of(args));
    return execute(all.toArray(String[]::new));
  }

  private ProbeRunDocument json(SimFace face, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("--json"));
    all.addAll(List.of(args));
    int rc = allreduce(face, all.toArray(String[]::new));
    assertThat(rc).as("stderr: %s", err).isZero();
    return StatusCodec.readPart(out.toString(), ProbeRunDocument.class);
  }

  /** On Ascend, seed 001's 272.7 us. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void oneKibLatencyMatchesTheProfile(SimFace face) throws IOException {
    ProbeRunDocument run = json(face, "--sizes", "1KiB");

    AllreduceLatency l = (AllreduceLatency) run.targets().get(0).measurements().get(0);
    assertThat(l.p50Seconds())
        .isCloseTo(face.allreduceLatency(), within(face.allreduceLatency() * 0.1));
  }

  /** On Ascend, seed 001's 105.1 GB/s. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void oneGibBusBandwidthMatchesTheProfile(SimFace face) throws IOException {
    // The sim really reduces 1 GiB per rank (seconds per round on a small CI machine): two rounds.
    // The model needs no warm-up, but the ranks' streams start out at different times on their
    // devices' clocks (what this JVM's earlier tests left there), and a first round waits for the
    // last rank, as it would on a device still busy with earlier work: it is the warm-up.
    ProbeRunDocument run = json(face, "--sizes", "1GiB", "--warmup", "1", "--iterations", "1");

    AllreduceBusBandwidth b = (AllreduceBusBandwidth) run.targets().get(0).measurements().get(1);
    assertThat(b.busBytesPerSecond())
        .isCloseTo(face.allreduceBusBandwidth(), within(face.allreduceBusBandwidth() * 0.1));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void printsATableLikeTheFieldNotes(SimFace face) {
    int rc = allreduce(face, "--sizes", "1KiB,64KiB", "--iterations", "5");

    assertThat(rc).as("stderr: %s", err).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines[0]).matches("size +p50 +p99 +algbw GB/s +busbw GB/s");
    Matcher row =
        Pattern.compile("1KiB +(\\d+\\.\\d)us +\\d+\\.\\dus +(0\\.0*[1-9]\\d?) +(0\\.0*[1-9]\\d?)")
            .matcher(lines[1]);
    // A 1KiB allreduce moves a few MB/s: its real digits, never 0.0, which reads as a dead link.
    assertThat(row.matches()).as(lines[1]).isTrue();
    assertThat(Double.parseDouble(row.group(1)) * 1e-6)
        .isCloseTo(face.allreduceLatency(), within(face.allreduceLatency() * 0.1));
    assertThat(lines[2]).startsWith("64KiB  ");
    assertThat(lines[3]).isEqualTo("devices 0,1: fp16 sum, busbw = algbw*2(n-1)/n");
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void failedRunExitsOneWithTheErrorOnStderr(SimFace face) {
    String call = face.symbol(SimFace.Call.ALLREDUCE);
    int code = face.collectiveInternalErrorCode();
    SimFaults.set("fail " + call + " " + code);

    int rc = allreduce(face, "--sizes", "1KiB");

    assertThat(rc).isEqualTo(Main.EXIT_FAILED);
    assertThat(out.toString()).contains("1KiB  failed  -");
    assertThat(err.toString())
        .contains("linkwatch: allreduce 0,1: " + call + " returned " + code + ": internal error");
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

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void singleDeviceMachineIsNotApplicable(SimFace face) throws Exception {
    // The profile is read when the runtime starts (aclInit, cuInit), so this runs in a child JVM
    // with its own environment.
    Path profile =
        Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"))
            .resolveSibling("profiles")
            .resolve(face.singleDeviceProfile());
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
            face.backend().id(),
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
    ProbeRunDocument run = StatusCodec.readPart(stdout, ProbeRunDocument.class);
    assertThat(run.targets()).isEmpty();
    assertThat(run.skippedBecause()).isEqualTo("allreduce needs two devices, found 1");
  }
}
