package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.linkwatch.config.ConfigLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Usage errors a new user meets, each one line in the shape {@code linkwatch: WHAT: WHY}. */
class CliMessagesTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int linkwatch(String... args) {
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private String errLine() {
    return err.toString().stripTrailing();
  }

  @Test
  void anUnknownProbeIsNamedAndTheProbesListed() {
    assertThat(linkwatch("probe", "nosuch")).isEqualTo(Main.EXIT_USAGE);
    assertThat(errLine())
        .isEqualTo("linkwatch: unknown probe 'nosuch': the probes are " + Main.probeNames());
  }

  @Test
  void aNearMissGetsTheClosestProbeOnly() {
    assertThat(linkwatch("probe", "allreduse")).isEqualTo(Main.EXIT_USAGE);
    assertThat(errLine())
        .isEqualTo(
            "linkwatch: unknown probe 'allreduse': did you mean 'allreduce'? the probes are "
                + Main.probeNames());
  }

  @Test
  void theProbeListIsEveryProbeCommand() {
    assertThat(Main.probeNames()).contains("p2p, ").contains("allreduce").contains("host-transfer");
  }

  @Test
  void checkConfigWithoutAFileSaysWhatItExpects() {
    assumeFalse(Files.exists(ConfigLoader.DEFAULT_PATH), "this host has the default config");
    assertThat(linkwatch("check-config")).isEqualTo(Main.EXIT_USAGE);
    assertThat(errLine())
        .isEqualTo(
            "linkwatch: check-config: name the config file to check, e.g. 'linkwatch check-config"
                + " /etc/linkwatch/linkwatch.yaml' (none given, and the default,"
                + " /etc/linkwatch/linkwatch.yaml, does not exist)");
    assertThat(out.toString()).isEmpty();
  }

  /**
   * A lock file in a directory that does not exist: not an error, but the note says what follows
   * and what to do (the demo's agent, started by hand, has no /run/linkwatch).
   */
  @Test
  void checkConfigSaysWhenTheProbeLocksDirectoryIsMissing(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("linkwatch.yaml");
    Path lock = dir.resolve("missing").resolve("probes.lock");
    Files.writeString(config, "backend: sim\ncoordination:\n  lock_file: " + lock + "\n");
    assertThat(linkwatch("check-config", config.toString())).as(err.toString()).isZero();
    assertThat(out.toString().lines())
        .hasSize(2)
        .last()
        .asString()
        .isEqualTo(
            config
                + ": note: coordination.lock_file "
                + lock
                + ": "
                + lock.getParent()
                + " does not exist, so checks and the agent's probes will not keep off each"
                + " other's devices; create it (mkdir -p, as the systemd unit's"
                + " RuntimeDirectory=linkwatch does) or set coordination.lock_file to a file in a"
                + " directory that exists");

    Files.createDirectories(lock.getParent());
    out.getBuffer().setLength(0);
    assertThat(linkwatch("check-config", config.toString())).isZero();
    assertThat(out.toString().lines()).hasSize(1);
  }

  @Test
  void topoSizeWithoutMeasureIsRefused() {
    assertThat(linkwatch("topo", "--backend", "sim", "--size", "64MiB")).isEqualTo(Main.EXIT_USAGE);
    assertThat(errLine())
        .isEqualTo(
            "linkwatch: --size: needs --measure (without it topo copies nothing); add --measure or"
                + " drop --size");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void anEmptyItemInAListIsRefusedNamingTheOption() {
    assertThat(linkwatch("probe", "p2p", "--backend", "sim", "--sizes", "64MiB,,1GiB"))
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(errLine())
        .isEqualTo(
            "linkwatch: --sizes: an empty item in '64MiB,,1GiB': remove the extra comma or put the"
                + " value that is missing");
    assertThat(out.toString()).isEmpty();
  }
}
