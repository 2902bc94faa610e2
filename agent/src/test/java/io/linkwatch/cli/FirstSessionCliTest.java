package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.testing.JavaProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What a new user runs first, as real processes: errors are one line naming the thing and what to
 * do (exit 2 for usage and configuration), the commands and options are spelt alike, and {@code
 * linkwatch} alone or {@code linkwatch help} shows the usage.
 */
class FirstSessionCliTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private static JavaProcess.Result linkwatch(String... args) throws Exception {
    return JavaProcess.run(Map.of(), LIMIT, args);
  }

  @Test
  void aListenAddressInUseIsOneLineNamingItAndExitTwo() throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), "backend: sim\n");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + taken.getLocalPort();
      JavaProcess.Result r = linkwatch("run", "--config", config.toString(), "--listen", address);
      assertThat(r.exit()).isEqualTo(2);
      assertThat(r.err().lines())
          .containsExactly(
              "linkwatch: --listen "
                  + address
                  + ": cannot listen there (Address already in use); stop what uses it or"
                  + " choose another HOST:PORT with --listen");
      assertThat(r.out()).isEmpty();
    }
  }

  @Test
  void linkwatchAloneShowsTheUsageAndWhatToType() throws Exception {
    JavaProcess.Result r = linkwatch();
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("Usage: linkwatch").contains("Commands:", "probe", "run");
    assertThat(r.err()).doesNotContain("Missing required subcommand");
    assertThat(r.err().lines().reduce((a, b) -> b).orElseThrow())
        .startsWith("linkwatch: name a command, e.g. 'linkwatch run'");
  }

  @Test
  void helpIsACommand() throws Exception {
    JavaProcess.Result all = linkwatch("help");
    assertThat(all.exit()).isZero();
    assertThat(all.out()).startsWith("Usage: linkwatch").contains("check-config");
    JavaProcess.Result probe = linkwatch("help", "probe");
    assertThat(probe.exit()).isZero();
    assertThat(probe.out()).startsWith("Usage: linkwatch probe").contains("host-transfer");
  }

  @Test
  void probeAloneListsTheProbes() throws Exception {
    JavaProcess.Result r = linkwatch("probe");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("Usage: linkwatch probe", "p2p", "host-transfer");
    assertThat(r.err()).contains("linkwatch: name a command, e.g. 'linkwatch probe p2p'");
  }

  @Test
  void checkConfigTakesConfigAsRunDoes() throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), "backend: sim\n");
    JavaProcess.Result r = linkwatch("check-config", "--config", config.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith(config + ": ok (backend sim");
    JavaProcess.Result positional = linkwatch("check-config", config.toString());
    assertThat(positional.exit()).isZero();
  }

  @Test
  void theConfigKeyNamesTheProbeCommandToo() throws Exception {
    JavaProcess.Result r =
        linkwatch(
            "probe", "host_transfer", "--backend", "sim", "--sizes", "1MiB", "--iterations", "2");
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("device  cpu node");
  }

  /** {@code 0-1} needs no quotes in a shell ({@code 0->1} unquoted is a redirection). */
  @Test
  void pairsAreWrittenWithoutShellQuoting() throws Exception {
    JavaProcess.Result r =
        linkwatch(
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "1MiB",
            "--iterations",
            "2",
            "--pairs",
            "1-0");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("1->0").doesNotContain("0->1 GB/s");
    JavaProcess.Result help = linkwatch("probe", "p2p", "--help");
    assertThat(help.out()).contains("0-1 or 0:1").doesNotContain("such as 0->1");
  }

  /**
   * On a terminal, one line that rewrites itself and is erased before the results; on a pipe,
   * nothing. (LINKWATCH_PROGRESS=always stands in for the terminal.)
   */
  @Test
  void progressIsOneUpdatingLineOnATerminalAndNothingOnAPipe() throws Exception {
    assertProgressOnlyOnATerminal(
        Map.of(), "probe", "p2p", "--backend", "sim-cuda", "--sizes", "64MiB", "--iterations", "3");
  }

  /** {@code topo --measure} shows the same progress line as {@code probe}, and only there. */
  @Test
  void topoMeasureShowsProgressOnATerminalAndNothingOnAPipe() throws Exception {
    // Four of the eight GPUs: twelve pairs. The line shows from the first second on, and a quiet
    // machine measures twelve pairs in less (the whole command took 1.5 s), so the sim's copies are
    // paced to take wall time: at 100x their modeled time the command took 4.9 s.
    Path control = Files.writeString(dir.resolve("sim-control"), "pace 100\n");
    assertProgressOnlyOnATerminal(
        Map.of("CUDA_VISIBLE_DEVICES", "0,1,2,3", "LINKWATCH_SIM_CONTROL", control.toString()),
        "topo",
        "--measure",
        "--backend",
        "sim-cuda",
        "--size",
        "64MiB",
        "--iterations",
        "3");
  }

  /** Runs a command that copies 64 MiB between pairs on a pipe, then on a "terminal". */
  private static void assertProgressOnlyOnATerminal(Map<String, String> env, String... args)
      throws Exception {
    JavaProcess.Result pipe = JavaProcess.run(env, LIMIT, args);
    assertThat(pipe.exit()).as(pipe.err()).isZero();
    assertThat(pipe.err()).isEmpty();
    Map<String, String> terminal = new java.util.HashMap<>(env);
    terminal.put("LINKWATCH_PROGRESS", "always");
    JavaProcess.Result tty = JavaProcess.run(terminal, LIMIT, args);
    assertThat(tty.exit()).isZero();
    assertThat(tty.err())
        .doesNotContain("\n")
        .startsWith("\r\033[Klinkwatch: ")
        .endsWith("\r\033[K")
        .matches("(?s).*\\d->\\d 64MiB, \\d+\\.\\d s.*");
    // The same output; only the figures may differ.
    assertThat(tty.out().lines().count()).isEqualTo(pipe.out().lines().count());
  }

  /**
   * Sizes show as written ({@code 64MB}, not {@code 62500KiB}), memory as a person reads it, and
   * both matrices mark the diagonal alike.
   */
  @Test
  void displayShowsSizesAsWrittenAndOneDiagonalMark() throws Exception {
    JavaProcess.Result p2p =
        linkwatch(
            "probe",
            "p2p",
            "--backend",
            "sim-cuda",
            "--sizes",
            "64MB",
            "--iterations",
            "2",
            "--pairs",
            "0-1,1-0,0-2,2-0,1-2,2-1");
    assertThat(p2p.exit()).as(p2p.err()).isZero();
    assertThat(p2p.out()).contains("64MB").doesNotContain("62500KiB").doesNotContain("***");
    assertThat(p2p.out().lines().filter(l -> l.matches("0\\s+X\\s.*"))).isNotEmpty();
    JavaProcess.Result topo = linkwatch("topo", "--backend", "sim-cuda");
    assertThat(topo.exit()).isZero();
    assertThat(topo.out()).contains("140.4GiB").doesNotContain("143771MiB");
    assertThat(topo.out().lines().filter(l -> l.matches("GPU0\\s+X\\s.*"))).isNotEmpty();
  }

  @Test
  void aMisspeltOptionIsOneLineWithASuggestionAndWhereTheOptionsAre() throws Exception {
    JavaProcess.Result r = linkwatch("probe", "p2p", "--backnd", "sim");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().lines().toList())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("'--backnd'", "did you mean --backend?", "see 'linkwatch probe p2p --help'");
  }

  @Test
  void theToolTimeoutIsADurationLikeEveryOther() {
    CommandLine cli = Main.commandLine();
    CommandLine.ParseResult parsed = cli.parseArgs("compare", "--tool-timeout", "10s");
    CompareCommand compare = parsed.subcommand().commandSpec().commandLine().getCommand();
    assertThat(compare.toolTimeout).isEqualTo(Duration.ofSeconds(10));
    StringWriter err = new StringWriter();
    cli = Main.commandLine();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("compare", "--tool-timeout", "10")).isEqualTo(2);
    assertThat(err.toString()).contains("'10' is not a duration (use e.g. 500ms, 30s, 5m, 1h)");
  }

  @Test
  void logLevelDebugTurnsOnDebugLinesAndAWrongLevelIsAUsageError() throws Exception {
    JavaProcess.Result debug =
        linkwatch(
            "probe",
            "device-memory",
            "--backend",
            "sim",
            "--size",
            "1MiB",
            "--iterations",
            "2",
            "--log.level",
            "debug");
    assertThat(debug.exit()).isZero();
    assertThat(debug.err()).contains("DEBUG OneShot: device activity checks");
    JavaProcess.Result json =
        linkwatch(
            "--log.format",
            "json",
            "--log.level",
            "debug",
            "probe",
            "device-memory",
            "--backend",
            "sim",
            "--size",
            "1MiB",
            "--iterations",
            "2");
    assertThat(json.err().lines().filter(l -> l.contains("OneShot")))
        .allSatisfy(
            l ->
                assertThat(l)
                    .matches(
                        "\\{\"time\":\"[^\"]+\",\"level\":\"debug\",\"logger\":\"OneShot\","
                            + "\"msg\":\"device activity checks: .*\"}"));
    JavaProcess.Result wrong = linkwatch("--log.level", "loud");
    assertThat(wrong.exit()).isEqualTo(2);
    assertThat(wrong.err())
        .startsWith(
            "linkwatch: --log.level: 'loud' is not a level (use debug, info, warn or error)");
  }

  @Test
  void oneShotOutputHasNoLogLinesInIt() throws Exception {
    JavaProcess.Result r = linkwatch("topo", "--backend", "sim");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
  }

  @Test
  void anUnexpectedErrorIsOneLineUnlessDebug() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(CommandLine.Model.CommandSpec.create());
    cli.setErr(new PrintWriter(err));
    int exit =
        new ErrorHandler().handleExecutionException(new IllegalStateException("boom"), cli, null);
    assertThat(exit).isEqualTo(1);
    assertThat(err.toString().lines())
        .containsExactly(
            "linkwatch: unexpected error: java.lang.IllegalStateException: boom (please report"
                + " it, with the stack trace that --log.level debug shows)");
  }

  @Test
  void completionAndManPageCoverEveryCommand() throws Exception {
    JavaProcess.Result completion = linkwatch("completion");
    assertThat(completion.exit()).isZero();
    assertThat(completion.out())
        .contains("complete -F _complete_linkwatch", "host-transfer", "--log.level");
    JavaProcess.Result man = linkwatch("man");
    assertThat(man.exit()).isZero();
    assertThat(man.out())
        .startsWith(".TH LINKWATCH 1")
        .contains(".SS linkwatch probe p2p", ".SS linkwatch check\\-config", "\\-\\-tool\\-timeout")
        .contains("/usr/share/linkwatch/gpu\\-check.sh", "/usr/share/linkwatch/rules/");
  }

  /**
   * scripts/run-sim.sh with stand-ins for mvn and java: an option given to the script replaces the
   * script's default instead of being given twice, and the build is asked to be quiet.
   */
  @Test
  void runSimPassesItsArgumentsWithoutDoublingAnOption() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path log = dir.resolve("calls");
    stub(bin.resolve("mvn"), "echo \"mvn MAKEFLAGS=$MAKEFLAGS $*\" >> " + log);
    stub(bin.resolve("java"), "echo \"java $*\" >> " + log);
    Path script = Path.of("..", "scripts", "run-sim.sh").toAbsolutePath().normalize();
    ProcessBuilder pb =
        new ProcessBuilder(script.toString(), "--rebuild", "--listen", "127.0.0.1:9000")
            .redirectErrorStream(true);
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.environment().remove("BACKEND");
    pb.environment().put("LINKWATCH_SIM_CONTROL", dir.resolve("ctl").toString());
    pb.environment().put("TMPDIR", dir.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    List<String> calls = Files.readAllLines(log);
    assertThat(calls.get(0))
        .contains("MAKEFLAGS=--silent", " -B ", " -q ", "-Dstyle.color=never", "package");
    Path generated = dir.resolve("linkwatch-sim-a3.yaml");
    assertThat(calls.get(1))
        .isEqualTo(
            "java -jar agent/target/linkwatch.jar run --backend sim --config "
                + generated
                + " --listen 127.0.0.1:9000");
    // the example config, with the sim's hccn_tool stand-in as the NPU ports' reader
    AgentConfig config = ConfigLoader.load(generated);
    assertThat(config.passive().hccnTool())
        .isEqualTo(Path.of("..", "native", "build", "hccn_tool").toAbsolutePath().normalize());
    assertThat(config.probes())
        .isEqualTo(ConfigLoader.load(Path.of("..", "examples", "sim.yaml")).probes());
    assertThat(Arrays.stream(calls.get(1).split(" ")).filter(a -> a.equals("--listen"))).hasSize(1);
  }

  /**
   * scripts/run-sim.sh --profile: the profile picks the sim profile, backend and config and is not
   * passed on; an unknown one is refused in one line, exit 2, before anything is built or run.
   */
  @Test
  void runSimProfilePicksTheSimAndIsNotPassedOn() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path log = dir.resolve("calls");
    stub(bin.resolve("mvn"), "echo \"mvn $*\" >> " + log);
    stub(
        bin.resolve("java"),
        "echo \"java $* profile=$LINKWATCH_SIM_PROFILE control=$LINKWATCH_SIM_CONTROL\" >> " + log);
    Path script = Path.of("..", "scripts", "run-sim.sh").toAbsolutePath().normalize();
    Path control = dir.resolve("ctl");

    ProcessBuilder bad =
        new ProcessBuilder(script.toString(), "--profile", "nosuch").redirectErrorStream(true);
    bad.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    bad.environment().remove("BACKEND");
    Process b = bad.start();
    String badOut = new String(b.getInputStream().readAllBytes());
    assertThat(b.waitFor()).as(badOut).isEqualTo(2);
    assertThat(badOut)
        .isEqualTo("run-sim.sh: unknown profile 'nosuch': choose one of a3, 8x910b, h200\n");
    assertThat(log).doesNotExist();

    ProcessBuilder pb =
        new ProcessBuilder(
                script.toString(), "--profile", "h200", "--rebuild", "--listen", "127.0.0.1:9001")
            .redirectErrorStream(true);
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.environment().remove("BACKEND");
    pb.environment().put("LINKWATCH_SIM_CONTROL", control.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out)
        .contains("run-sim.sh: profile h200", "run-sim.sh: faults: write lines into " + control);
    assertThat(out).doesNotContain("\u001b");
    List<String> calls = Files.readAllLines(log);
    assertThat(calls.get(0)).startsWith("mvn ").contains("package");
    assertThat(calls.get(1))
        .startsWith(
            "java -jar agent/target/linkwatch.jar run --backend sim-cuda --config"
                + " examples/sim-cuda.yaml --listen 127.0.0.1:9001 profile=")
        .endsWith("native/profiles/hgx-h200.profile control=" + control)
        .doesNotContain("--profile", "--rebuild");
  }

  private static void stub(Path file, String body) throws IOException {
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
